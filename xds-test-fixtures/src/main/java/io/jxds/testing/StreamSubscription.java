package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One state-of-the-world ADS stream's state for one type URL: the subscribed names (each request
 * carries them all); classifies and applies that stream's requests and says what to send it. Not
 * thread-safe: guarded by the server's {@link Monitor}.
 */
final class StreamSubscription extends Subscription {
  private Set<String> names = new LinkedHashSet<>();
  /** Legacy wildcard: the first Listener or Cluster request named nothing. */
  private boolean wildcard;

  @Override
  Set<String> names() {
    return names;
  }

  /** Classifies a request against what was sent for its type on this stream. */
  RecordedRequest.Kind classify(DiscoveryRequest request) {
    RecordedRequest.@Nullable Kind byNonce = classifyNonce(request.getResponseNonce(), request.hasErrorDetail());
    if (byNonce != null) {
      return byNonce;
    }
    return new LinkedHashSet<>(request.getResourceNamesList()).equals(names)
        ? RecordedRequest.Kind.DUPLICATE
        : RecordedRequest.Kind.SUBSCRIPTION_CHANGE;
  }

  /**
   * Applies a request that is not stale (SotW: every request carries the full name list) and
   * returns the response it calls for, or null.
   */
  @Nullable DiscoveryResponse apply(ServedType type, DiscoveryRequest request, RecordedRequest.Kind kind) {
    boolean first = !requested;
    requested = true;
    Set<String> newNames = new LinkedHashSet<>(request.getResourceNamesList());
    Set<String> added = new LinkedHashSet<>(newNames);
    added.removeAll(names);
    names = newNames;
    if (first) {
      wildcard = newNames.isEmpty() && type.fullState;
    } else if (!newNames.isEmpty()) {
      wildcard = false;
    }
    noteAnswer(kind, request.getVersionInfo());
    // A new stream gets the data even if its version_info is current: the client may have lost
    // its cache, or be a new process reusing a version string. New names get the current
    // version at once. ACKs, NACKs and removals are not answered (a NACKed version is not
    // re-sent; the next change is).
    if (first || !added.isEmpty()) {
      return responseFor(type);
    }
    return null;
  }

  /**
   * The response for the subscribed names at the type's version: every resource of a full-state
   * type, else the subscribed ones that exist. Nothing to send: the type was never set, the stream
   * unsubscribed from everything, or (for a type that is not full state) none of its subscribed
   * names exists.
   */
  @Override
  @Nullable DiscoveryResponse responseFor(ServedType type) {
    if (type.version == null) {
      return null;
    }
    DiscoveryResponse.Builder response =
        DiscoveryResponse.newBuilder().setVersionInfo(type.version).setTypeUrl(type.typeUrl);
    if (type.fullState) {
      if (!wildcard && names.isEmpty()) {
        return null;
      }
      response.addAllResources(type.resources.values());
    } else {
      for (String name : names) {
        Any resource = type.resources.get(name);
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
