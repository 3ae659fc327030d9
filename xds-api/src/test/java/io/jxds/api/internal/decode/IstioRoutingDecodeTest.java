package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Metadata;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.internal.route.VirtualHostSelector;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.IstioResources;
import io.jxds.testing.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What istiod sends a proxyless gRPC client for routing ({@link IstioResources}) decodes and routes. */
class IstioRoutingDecodeTest {
  private static final String HOST = "echo.default.svc.cluster.local";
  private static final String ROUTES = "outbound|8080||echo.default.svc.cluster.local";

  @Test
  void listenerIsNamedHostPortAndRoutesOverRds() throws Exception {
    ListenerUpdate update = ListenerDecoder.decode(IstioResources.listener(HOST, 8080).vip("10.96.0.10").build());
    assertThat(update.name()).isEqualTo(HOST + ":8080");
    assertThat(update.rdsName()).contains(ROUTES);
    assertThat(update.httpFilters()).containsExactly(
        new HttpFilter("envoy.filters.http.fault", HttpFilter.FAULT_TYPE_URL, false,
            java.util.Optional.of(new io.jxds.api.model.filter.FaultConfig(java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.OptionalLong.empty()))),
        HttpFilter.router());
  }

  @Test
  void persistentSessionListenerIsNackedNamingTheFilter() {
    // gRFC A39: a required filter jxds lacks (gRFC A55/A60's stateful session); grpc-java NACKs it too
    assertThatThrownBy(() -> ListenerDecoder.decode(IstioResources.listener(HOST, 8080).persistentSession().build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining("http_filters[0].typed_config must be a filter jxds supports")
        .hasMessageContaining("envoy.filters.http.stateful_session");
  }

  @Test
  void defaultRouteConfigurationSendsEverythingToTheServiceCluster() throws Exception {
    RouteConfigurationUpdate update =
        RouteConfigurationDecoder.decode(IstioResources.routeConfiguration(HOST, 8080).vip("10.96.0.10").build());
    assertThat(update.name()).isEqualTo(ROUTES);
    VirtualHost host = update.virtualHosts().get(0);
    assertThat(host.domains()).containsExactly(HOST, HOST + ":8080", "echo", "echo:8080", "echo.default",
        "echo.default:8080", "echo.default.svc", "echo.default.svc:8080", "10.96.0.10", "10.96.0.10:8080");
    assertThat(host.routes()).hasSize(1);
    assertThat(host.routes().get(0).name()).isEqualTo("default");
    assertThat(host.routes().get(0).action()).isEqualTo(new RouteAction.Cluster(ROUTES));
  }

  @Test
  void shortNameTargetFindsTheHostDespiteAbsoluteDomains() throws Exception {
    // grpc-java reaches "FQDN." before "echo:8080" and throws in the channel's synchronization context
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(IstioResources.routeConfiguration(HOST, 8080)
        .build());
    for (String authority : List.of("echo:8080", "echo.default:8080", HOST + ":8080", HOST + ".:8080")) {
      assertThat(VirtualHostSelector.select(update.virtualHosts(), authority)).as(authority).isNotNull();
    }
  }

  @Test
  void canarySplitDecodesToWeightedSubsetsAndRoutesByWeight() throws Exception {
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(IstioResources.routeConfiguration(HOST, 8080)
        .split("v1", 90, "v2", 10).build());
    RouteAction action = update.virtualHosts().get(0).routes().get(0).action();
    assertThat(action).isEqualTo(new RouteAction.WeightedClusters(List.of(
        new ClusterWeight(IstioResources.subsetClusterName(HOST, 8080, "v1"), 90),
        new ClusterWeight(IstioResources.subsetClusterName(HOST, 8080, "v2"), 10))));
    RouteEntry entry = RouteTable.of(update.virtualHosts().get(0)).match("echo.Echo/Say", new Metadata(),
        TestRandom.seeded(3));
    assertThat(entry.clusterForDraw(89)).endsWith("|v1|" + HOST);
    assertThat(entry.clusterForDraw(90)).endsWith("|v2|" + HOST);
  }

  @Test
  void headerRouteThenSplit() throws Exception {
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(IstioResources.routeConfiguration(HOST, 8080)
        .headerRoute("x-canary", "true", "v2").subsetRoute("v1").build());
    RouteTable table = RouteTable.of(update.virtualHosts().get(0));
    Metadata canary = new Metadata();
    canary.put(Metadata.Key.of("x-canary", Metadata.ASCII_STRING_MARSHALLER), "true");
    assertThat(table.match("echo.Echo/Say", canary, TestRandom.seeded(1)).chooseCluster(TestRandom.seeded(1)))
        .isEqualTo(IstioResources.subsetClusterName(HOST, 8080, "v2"));
    assertThat(table.match("echo.Echo/Say", new Metadata(), TestRandom.seeded(1)).chooseCluster(TestRandom.seeded(1)))
        .isEqualTo(IstioResources.subsetClusterName(HOST, 8080, "v1"));
  }

  @Test
  void redirectDirectResponseAndCorsAreAcceptedAndOnlyThoseRoutesFail() throws Exception {
    // grpc-java NACKs each of these three, cutting the client off from the service
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(IstioResources.routeConfiguration(HOST, 8080)
        .redirect("/old.Echo/", "new-echo").directResponse("/gone.Echo/", 503).subsetRoute("v1").cors().build());
    List<RouteAction> actions = update.virtualHosts().get(0).routes().stream()
        .map(io.jxds.api.model.route.Route::action).toList();
    assertThat(actions).containsExactly(new RouteAction.NotForwarded("redirect"),
        new RouteAction.NotForwarded("direct_response"),
        new RouteAction.Cluster(IstioResources.subsetClusterName(HOST, 8080, "v1")));
    RouteTable table = RouteTable.of(update.virtualHosts().get(0));
    assertThat(table.match("old.Echo/Say", new Metadata(), TestRandom.seeded(1)).chooseCluster(TestRandom.seeded(1)))
        .isNull();
    assertThat(table.match("echo.Echo/Say", new Metadata(), TestRandom.seeded(1)).chooseCluster(TestRandom.seeded(1)))
        .isEqualTo(IstioResources.subsetClusterName(HOST, 8080, "v1"));
  }
}
