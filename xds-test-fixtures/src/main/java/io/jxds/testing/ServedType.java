package io.jxds.testing;

import com.google.protobuf.Any;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What {@link FakeAdsServer} serves for one type URL: its resources, the type's version and each
 * resource's own version (for delta streams). How a stream is told about them is the protocol's
 * business ({@link StreamSubscription}, {@link DeltaSubscription}). Not thread-safe: guarded by the
 * server's {@link Monitor}.
 */
final class ServedType {
  final String typeUrl;
  /**
   * Listener and Cluster are state-of-the-world types: each response carries the full set and a
   * missing name means deleted (xDS protocol, "Knowing When a Requested Resource Does Not
   * Exist"; gRFC A53). For the others a missing name means "unchanged".
   */
  final boolean fullState;

  final Map<String, Any> resources = new LinkedHashMap<>();
  /** Delta: each resource's own version, the type's version when it last changed. */
  final Map<String, String> resourceVersions = new HashMap<>();
  private long versionCounter;
  @Nullable String version; // null until the type is first set: nothing to send yet

  ServedType(String typeUrl, boolean fullState) {
    this.typeUrl = typeUrl;
    this.fullState = fullState;
  }

  /**
   * Records a change from {@code before}: the next version, which the resources that differ from
   * {@code before} take as their own.
   */
  void changedFrom(Map<String, Any> before) {
    version = Long.toString(++versionCounter);
    resources.forEach((name, any) -> {
      if (!any.equals(before.get(name))) {
        resourceVersions.put(name, version);
      }
    });
    resourceVersions.keySet().retainAll(resources.keySet());
  }
}
