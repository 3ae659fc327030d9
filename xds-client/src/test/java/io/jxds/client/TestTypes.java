package io.jxds.client;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import java.util.ArrayList;
import java.util.List;

/**
 * Resource types with tiny decoders, so that protocol tests do not depend on the validation rules
 * of the real decoders: a cluster is invalid when its {@code eds_config} is a path; endpoints are
 * the list of "ip:port" strings.
 */
final class TestTypes {
  record TestCluster(String name, String edsServiceName) {}

  record TestEndpoints(String name, List<String> addresses) {}

  static final ResourceType<TestCluster> CLUSTER =
      ResourceType.of(
          ResourceTypes.CLUSTER_TYPE_URL,
          "CDS",
          true,
          Cluster.class,
          Cluster::getName,
          c -> {
            if (!c.getEdsClusterConfig().getEdsConfig().hasAds() && !c.getEdsClusterConfig().getEdsConfig().hasSelf()) {
              throw new XdsResourceException(
                  c.getName(), "cluster \"" + c
                      .getName() + "\": eds_cluster_config.eds_config must be ads or self, got path");
            }
            return new TestCluster(c.getName(), c.getEdsClusterConfig().getServiceName());
          });

  static final ResourceType<TestEndpoints> ENDPOINTS =
      ResourceType.of(
          ResourceTypes.ENDPOINTS_TYPE_URL,
          "EDS",
          false,
          ClusterLoadAssignment.class,
          ClusterLoadAssignment::getClusterName,
          cla -> {
            List<String> addresses = new ArrayList<>();
            for (LocalityLbEndpoints l : cla.getEndpointsList()) {
              for (LbEndpoint e : l.getLbEndpointsList()) {
                addresses.add(
                    e.getEndpoint().getAddress().getSocketAddress().getAddress()
                        + ":"
                        + e.getEndpoint().getAddress().getSocketAddress().getPortValue());
              }
            }
            return new TestEndpoints(cla.getClusterName(), addresses);
          });

  static DiscoveryResponse response(String typeUrl, String version, String nonce, Any... resources) {
    return DiscoveryResponse.newBuilder()
        .setTypeUrl(typeUrl)
        .setVersionInfo(version)
        .setNonce(nonce)
        .addAllResources(List.of(resources))
        .build();
  }

  private TestTypes() {}
}
