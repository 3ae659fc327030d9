package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import java.util.List;
import org.junit.jupiter.api.Test;

class XdsResourcesTest {
  @Test
  void defaultClusterIsEdsOverAds() {
    Cluster c = XdsResources.cluster("payments").build();
    assertThat(c.getName()).isEqualTo("payments");
    assertThat(c.getType()).isEqualTo(Cluster.DiscoveryType.EDS);
    assertThat(c.getEdsClusterConfig().getEdsConfig().getConfigSourceSpecifierCase())
        .isEqualTo(ConfigSource.ConfigSourceSpecifierCase.ADS);
    assertThat(c.getEdsClusterConfig().getServiceName()).isEmpty();
    assertThat(c.hasCircuitBreakers()).isFalse();
    assertThat(c.hasTransportSocket()).isFalse();
  }

  @Test
  @SuppressWarnings("deprecation") // reads ConfigSource.path to show it stays unset
  void clusterSettersFillTheirFields() throws Exception {
    Cluster c =
        XdsResources.cluster("payments")
            .edsServiceName("payments-eds")
            .maxRequests(0xFFFF_FFFFL)
            .lrsSelf()
            .loadBalancingPolicy(XdsResources.wrrLocality(XdsResources.roundRobin()))
            .upstreamTls("payments.example.com")
            .build();
    assertThat(c.getEdsClusterConfig().getServiceName()).isEqualTo("payments-eds");
    assertThat(c.getCircuitBreakers().getThresholds(0).getPriority()).isEqualTo(RoutingPriority.DEFAULT);
    assertThat(Integer.toUnsignedLong(c.getCircuitBreakers().getThresholds(0).getMaxRequests().getValue()))
        .isEqualTo(0xFFFF_FFFFL);
    assertThat(c.getLrsServer().hasSelf()).isTrue();
    Any policy = c.getLoadBalancingPolicy().getPolicies(0).getTypedExtensionConfig().getTypedConfig();
    WrrLocality wrr = policy.unpack(WrrLocality.class);
    assertThat(wrr.getEndpointPickingPolicy().getPolicies(0).getTypedExtensionConfig().getTypedConfig()
        .is(RoundRobin.class))
        .isTrue();
    assertThat(c.getTransportSocket().getName()).isEqualTo("envoy.transport_sockets.tls");
    assertThat(c.getTransportSocket().getTypedConfig().unpack(UpstreamTlsContext.class).getSni())
        .isEqualTo("payments.example.com");
    assertThat(XdsResources.cluster("x").edsConfigPath("/etc/eds").build().getEdsClusterConfig().getEdsConfig()
        .getPath())
        .isEmpty();
    assertThat(XdsResources.cluster("x").edsConfigPath("/etc/eds").build().getEdsClusterConfig().getEdsConfig()
        .getPathConfigSource().getPath())
        .isEqualTo("/etc/eds");
  }

  @Test
  void endpointsBuilderLaysOutLocalitiesEndpointsAndDrops() {
    ClusterLoadAssignment cla =
        XdsResources.endpoints("payments-eds")
            .locality("us-east", "1a", "", l -> l.priority(1).weight(3)
                .endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY)
                .endpoint("10.0.0.2", 8080, HealthStatus.DRAINING, 5))
            .locality("us-west", "", "", l -> l.noWeight())
            .drop("lb", 25, FractionalPercent.DenominatorType.HUNDRED)
            .overprovisioningFactor(200)
            .build();
    assertThat(cla.getClusterName()).isEqualTo("payments-eds");
    LocalityLbEndpoints east = cla.getEndpoints(0);
    assertThat(east.getLocality().getRegion()).isEqualTo("us-east");
    assertThat(east.getLocality().getZone()).isEqualTo("1a");
    assertThat(east.getPriority()).isEqualTo(1);
    assertThat(east.getLoadBalancingWeight().getValue()).isEqualTo(3);
    assertThat(east.getLbEndpoints(0).hasLoadBalancingWeight()).isFalse();
    assertThat(east.getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress().getAddress())
        .isEqualTo("10.0.0.1");
    assertThat(east.getLbEndpoints(1).getLoadBalancingWeight().getValue()).isEqualTo(5);
    assertThat(east.getLbEndpoints(1).getHealthStatus()).isEqualTo(HealthStatus.DRAINING);
    assertThat(cla.getEndpoints(1).hasLoadBalancingWeight()).isFalse();
    assertThat(cla.getPolicy().getDropOverloads(0).getCategory()).isEqualTo("lb");
    assertThat(cla.getPolicy().getDropOverloads(0).getDropPercentage().getNumerator()).isEqualTo(25);
    assertThat(cla.getPolicy().getOverprovisioningFactor().getValue()).isEqualTo(200);
  }

  @Test
  void listenerUsesRdsOverAdsWithRouterLast() throws Exception {
    Listener listener = XdsResources.listener("svc").rdsRouteConfig("route-1").build();
    HttpConnectionManager hcm = listener.getApiListener().getApiListener().unpack(HttpConnectionManager.class);
    assertThat(hcm.getRds().getRouteConfigName()).isEqualTo("route-1");
    assertThat(hcm.getRds().getConfigSource().hasAds()).isTrue();
    assertThat(hcm.getHttpFilters(hcm.getHttpFiltersCount() - 1).getTypedConfig().is(Router.class)).isTrue();

    RouteConfiguration route = XdsResources.route("route-1").virtualHost("svc", List.of("*"), "payments").build();
    assertThat(route.getVirtualHosts(0).getDomainsList()).containsExactly("*");
    assertThat(route.getVirtualHosts(0).getRoutes(0).getMatch().getPrefix()).isEqualTo("/");
    assertThat(route.getVirtualHosts(0).getRoutes(0).getRoute().getCluster()).isEqualTo("payments");
  }
}
