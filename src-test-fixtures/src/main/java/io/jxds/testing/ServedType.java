package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link FakeAdsServer} serves for one type URL: its resources and version, and the response
 * a stream's subscription calls for. Not thread-safe: guarded by the server's lock.
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
  long versionCounter;
  String version; // null until the type is first set: nothing to send yet

  ServedType(String typeUrl) {
    this.typeUrl = typeUrl;
    this.fullState =
        typeUrl.equals(FakeAdsServer.CLUSTER_TYPE_URL)
            || typeUrl.equals(FakeAdsServer.LISTENER_TYPE_URL);
  }

  /** Records a change: the next version. */
  void bumpVersion() {
    version = Long.toString(++versionCounter);
  }

  /**
   * The response (without nonce) for a stream's subscription, or null when there is nothing to
   * send: the type was never set, the stream unsubscribed from everything, or (for a type that is
   * not full state) none of its subscribed names exists.
   */
  DiscoveryResponse responseFor(StreamSubscription subscription) {
    if (version == null) {
      return null;
    }
    DiscoveryResponse.Builder response =
        DiscoveryResponse.newBuilder().setVersionInfo(version).setTypeUrl(typeUrl);
    if (fullState) {
      if (!subscription.wildcard && subscription.names.isEmpty()) {
        return null;
      }
      response.addAllResources(resources.values());
    } else {
      for (String name : subscription.names) {
        Any resource = resources.get(name);
        if (resource != null) {
          response.addResources(resource);
        }
      }
      if (response.getResourcesCount() == 0) {
        return null;
      }
    }
    return response.build();
  }
}
