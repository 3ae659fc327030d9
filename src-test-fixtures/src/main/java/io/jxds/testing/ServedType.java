package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import java.util.HashMap;
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
  /** Delta: each resource's own version, the type's version when it last changed. */
  final Map<String, String> resourceVersions = new HashMap<>();
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

  /** After a change from {@code before}: the resources that differ get the new version. */
  void recordResourceVersions(Map<String, Any> before) {
    resources.forEach((name, any) -> {
      if (!any.equals(before.get(name))) {
        resourceVersions.put(name, version);
      }
    });
    resourceVersions.keySet().retainAll(resources.keySet());
  }

  /**
   * The delta response (without nonce) a stream's subscription calls for: the subscribed
   * resources whose version the client does not hold, and in {@code removed_resources} the
   * subscribed names the client holds that no longer exist; null when there is neither. What it
   * returns counts as held by the client from now on.
   */
  DeltaDiscoveryResponse deltaResponseFor(DeltaSubscription subscription) {
    if (version == null) {
      return null;
    }
    DeltaDiscoveryResponse.Builder response =
        DeltaDiscoveryResponse.newBuilder().setSystemVersionInfo(version).setTypeUrl(typeUrl);
    for (String name : subscription.names) {
      Any resource = resources.get(name);
      String held = subscription.clientVersions.get(name);
      if (resource != null) {
        String current = resourceVersions.get(name);
        if (!current.equals(held)) {
          response.addResources(Resource.newBuilder().setName(name).setVersion(current).setResource(resource));
          subscription.clientVersions.put(name, current);
        }
      } else if (held != null) {
        response.addRemovedResources(name);
        subscription.clientVersions.remove(name);
      }
    }
    if (response.getResourcesCount() == 0 && response.getRemovedResourcesCount() == 0) {
      return null;
    }
    return response.build();
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
