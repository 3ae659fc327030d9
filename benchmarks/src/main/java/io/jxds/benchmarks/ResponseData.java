package io.jxds.benchmarks;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.jxds.api.ResourceTypes;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.XdsResources;

/** Serialized CDS and EDS responses of realistic size, built once per benchmark trial. */
final class ResponseData {
  private ResponseData() {}

  static String clusterName(int i) {
    return "cluster-" + i;
  }

  /** {@code count} EDS clusters; {@code flavour} changes every cluster's service name. */
  static byte[] clusters(int count, String version, String flavour) {
    DiscoveryResponse.Builder r =
        DiscoveryResponse.newBuilder()
            .setTypeUrl(ResourceTypes.CLUSTER_TYPE_URL)
            .setVersionInfo(version)
            .setNonce("nonce-" + version);
    for (int i = 0; i < count; i++) {
      r.addResources(XdsResources.cluster(clusterName(i)).edsServiceName(clusterName(i) + "-" + flavour).buildAny());
    }
    return r.build().toByteArray();
  }

  /**
   * One ClusterLoadAssignment {@code name} of {@code endpoints} endpoints in localities of 1 000,
   * each with a distinct IP; {@code port} changes every endpoint.
   */
  static byte[] endpoints(String name, int endpoints, String version, int port) {
    EndpointsBuilder cla = XdsResources.endpoints(name);
    int perLocality = 1000;
    for (int l = 0; l * perLocality < endpoints; l++) {
      int first = l * perLocality;
      int last = Math.min(endpoints, first + perLocality);
      cla.locality(
          "region",
          "zone-" + l,
          "",
          loc -> {
            loc.weight(10);
            for (int i = first; i < last; i++) {
              loc.endpoint("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255), port,
                  HealthStatus.HEALTHY);
            }
          });
    }
    return DiscoveryResponse.newBuilder()
        .setTypeUrl(ResourceTypes.ENDPOINTS_TYPE_URL)
        .setVersionInfo(version)
        .setNonce("nonce-" + version)
        .addResources(cla.buildAny())
        .build()
        .toByteArray();
  }
}
