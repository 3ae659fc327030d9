package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import org.junit.jupiter.api.Test;

class IstioResourcesTest {
  private static final String HOST = "echo.default.svc.cluster.local";

  @Test
  void clusterNamesAreIstiosSubsetKeys() {
    assertThat(IstioResources.clusterName(HOST, 8080)).isEqualTo("outbound|8080||echo.default.svc.cluster.local");
    assertThat(IstioResources.subsetClusterName(HOST, 8080, "v1"))
        .isEqualTo("outbound|8080|v1|echo.default.svc.cluster.local");
    assertThatThrownBy(() -> IstioResources.clusterName("", 8080)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IstioResources.clusterName(HOST, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void clusterIsEdsOverAdsNamedForItselfWithNoLbPolicySet() {
    Cluster cluster = IstioResources.cluster(HOST, 8080).build();

    assertThat(cluster.getName()).isEqualTo("outbound|8080||echo.default.svc.cluster.local");
    assertThat(cluster.getType()).isEqualTo(Cluster.DiscoveryType.EDS);
    assertThat(cluster.getEdsClusterConfig().getServiceName()).isEqualTo(cluster.getName());
    assertThat(cluster.getEdsClusterConfig().getEdsConfig().hasAds()).isTrue();
    assertThat(cluster.getLbPolicy()).isEqualTo(Cluster.LbPolicy.ROUND_ROBIN);
    assertThat(cluster.getLbConfigCase()).isEqualTo(Cluster.LbConfigCase.LBCONFIG_NOT_SET);
    assertThat(cluster.hasCircuitBreakers()).isFalse();
    assertThat(cluster.hasTransportSocket()).isFalse();
    assertThat(cluster.getTransportSocketMatchesCount()).isZero();
  }

  @Test
  void destinationRuleSettingsMapAsIstiodMapsThem() {
    Cluster ringHash = IstioResources.subsetCluster(HOST, 8080, "v1").consistentHash().http2MaxRequests(100).build();

    assertThat(ringHash.getName()).isEqualTo("outbound|8080|v1|echo.default.svc.cluster.local");
    assertThat(ringHash.getEdsClusterConfig().getServiceName()).isEqualTo(ringHash.getName());
    assertThat(ringHash.getLbPolicy()).isEqualTo(Cluster.LbPolicy.RING_HASH);
    assertThat(ringHash.getRingHashLbConfig().getMinimumRingSize().getValue()).isEqualTo(1024);
    assertThat(ringHash.getRingHashLbConfig().hasMaximumRingSize()).isFalse();
    assertThat(ringHash.getCircuitBreakers().getThresholdsList()).singleElement().satisfies(t -> {
      assertThat(t.getMaxRequests().getValue()).isEqualTo(100);
      assertThat(t.hasMaxConnections() || t.hasMaxPendingRequests() || t.hasMaxRetries()).isFalse();
    });

    Cluster roundRobin = IstioResources.cluster(HOST, 8080).consistentHash(4096).roundRobin().build();
    assertThat(roundRobin.getLbPolicy()).isEqualTo(Cluster.LbPolicy.ROUND_ROBIN);
    assertThat(roundRobin.hasRingHashLbConfig()).isFalse();
    assertThat(IstioResources.cluster(HOST, 8080).leastRequest().build().getLbPolicy())
        .isEqualTo(Cluster.LbPolicy.LEAST_REQUEST);
    Cluster maglev = IstioResources.cluster(HOST, 8080).maglev(65537).build();
    assertThat(maglev.getLbPolicy()).isEqualTo(Cluster.LbPolicy.MAGLEV);
    assertThat(maglev.getMaglevLbConfig().getTableSize().getValue()).isEqualTo(65537);
    assertThat(IstioResources.cluster(HOST, 8080).maglev().build().hasMaglevLbConfig()).isFalse();
  }

  @Test
  void endpointsCarryLocalityWeightsAndWorkloadMetadata() {
    ClusterLoadAssignment assignment = IstioResources.endpoints(HOST, 8080)
        .canonicalRevision("v1")
        .locality("us-east1/us-east1-b/rack-1")
        .endpoint("echo-v1-a", "10.0.0.1", 8080)
        .endpoint("echo-v1-b", "10.0.0.2", 8080, 3)
        .locality("us-west1/us-west1-a").priority(1)
        .endpoint("echo-v1-c", "10.0.1.1", 8080, 2, HealthStatus.DRAINING)
        .build();

    assertThat(assignment.getClusterName()).isEqualTo("outbound|8080||echo.default.svc.cluster.local");
    LocalityLbEndpoints east = assignment.getEndpoints(0);
    assertThat(east.getLocality().getRegion()).isEqualTo("us-east1");
    assertThat(east.getLocality().getZone()).isEqualTo("us-east1-b");
    assertThat(east.getLocality().getSubZone()).isEqualTo("rack-1");
    assertThat(east.getLoadBalancingWeight().getValue()).isEqualTo(4);
    assertThat(east.getPriority()).isZero();
    LbEndpoint b = east.getLbEndpoints(1);
    assertThat(b.getHealthStatus()).isEqualTo(HealthStatus.HEALTHY);
    assertThat(b.getLoadBalancingWeight().getValue()).isEqualTo(3);
    assertThat(b.getEndpoint().getAddress().getSocketAddress().getAddress()).isEqualTo("10.0.0.2");
    assertThat(b.getMetadata().getFilterMetadataOrThrow("istio").getFieldsOrThrow("workload").getStringValue())
        .isEqualTo("echo-v1-b;default;echo;v1;Kubernetes");
    assertThat(b.getMetadata().getFilterMetadataOrThrow("envoy.transport_socket_match")
        .getFieldsOrThrow("tlsMode").getStringValue()).isEqualTo("istio");
    LocalityLbEndpoints west = assignment.getEndpoints(1);
    assertThat(west.getLocality().getSubZone()).isEmpty();
    assertThat(west.getPriority()).isEqualTo(1);
    assertThat(west.getLoadBalancingWeight().getValue()).isEqualTo(2);
    assertThat(west.getLbEndpoints(0).getHealthStatus()).isEqualTo(HealthStatus.DRAINING);
  }

  @Test
  void endpointBeforeAnyLocalityIsAnError() {
    assertThatThrownBy(() -> IstioResources.endpoints(HOST, 8080).endpoint("w", "10.0.0.1", 8080))
        .isInstanceOf(IllegalStateException.class);
  }
}
