package io.jxds.toolkit;

import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.testing.XdsResources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Route tables and where a request goes, by the client's own route-matching engine (gRFC A27, A28). */
class RoutePlanTest {
  static Route route(String name, RouteMatch match, RouteAction action) {
    return Route.newBuilder().setName(name).setMatch(match).setRoute(action).build();
  }

  static RouteMatch prefix(String prefix) {
    return RouteMatch.newBuilder().setPrefix(prefix).build();
  }

  static RouteMatch prefixWithHeader(String prefix, String header, String value) {
    return RouteMatch.newBuilder().setPrefix(prefix)
        .addHeaders(HeaderMatcher.newBuilder().setName(header).setExactMatch(value)).build();
  }

  static RouteAction cluster(String name) {
    return RouteAction.newBuilder().setCluster(name).build();
  }

  static RouteAction weighted(String a, int wa, String b, int wb) {
    return RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(a).setWeight(UInt32Value.of(wa)))
        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(b).setWeight(UInt32Value.of(wb)))).build();
  }

  static RouteConfiguration routes(String name, VirtualHost... hosts) {
    return RouteConfiguration.newBuilder().setName(name).addAllVirtualHosts(List.of(hosts)).build();
  }

  static VirtualHost host(String name, List<String> domains, Route... routes) {
    return VirtualHost.newBuilder().setName(name).addAllDomains(domains).addAllRoutes(List.of(routes)).build();
  }

  /** svc: x-version v2 goes to payments-v2; /pkg.S/ splits 90/10; the rest to payments. */
  private final Snapshot payments = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("svc-routes").build(),
      routes("svc-routes", host("vh", List.of("svc", "svc.example.com"),
          route("canary-header", prefixWithHeader("/", "x-version", "v2"), cluster("payments-v2")),
          route("split", prefix("/pkg.S/"), weighted("payments", 90, "payments-v2", 10)),
          route("rest", prefix("/"), cluster("payments")))));

  @Test
  void theRouteTableIsTheVirtualHostsRoutesInOrderWithTheirShares() {
    ListenerPlan listener = payments.plan().listener("svc").orElseThrow();

    assertThat(listener.state()).isEqualTo(ListenerPlan.State.ROUTING);
    assertThat(listener.routeConfigurationName()).isEqualTo("svc-routes");
    VirtualHostPlan host = listener.virtualHost("vh").orElseThrow();
    assertThat(host.domains()).containsExactly("svc", "svc.example.com");
    assertThat(host.routes()).extracting(RoutePlan::name).containsExactly("canary-header", "split", "rest");
    assertThat(host.routes().get(0).match()).isEqualTo("prefix \"/\" && header x-version exact \"v2\"");
    assertThat(host.route("split").orElseThrow().clusters()).containsExactly(
        new RouteCluster("payments", 90, Fraction.of(9, 10)), new RouteCluster("payments-v2", 10, Fraction.of(1, 10)));
  }

  @Test
  void aRequestGoesToTheFirstRouteItMatchesWithItsWeights() {
    assertThat(payments.plan()).request("svc", "/pkg.S/M").routesTo("payments", "payments-v2")
        .withShare("payments", 0.9).withShare("payments-v2", 0.1).matchesRoute("split");
    assertThat(payments.plan()).request("svc", "/pkg.S/M", Map.of("x-version", "v2")).routesTo("payments-v2")
        .matchesRoute("canary-header");
    assertThat(payments.plan()).request("svc.example.com", "/other.T/M", Map.of("x-version", "v3"))
        .routesTo("payments").matchesRoute("rest");
  }

  @Test
  void aRequestNoRouteMatchesFailsAsTheChannelDoes() {
    Snapshot s = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build(),
        routes("r", host("vh", List.of("*"), route("only", prefix("/a.A/"), cluster("a")))));

    RequestRoute r = s.plan().request("svc", "/b.B/M", Map.of());

    assertThat(r.routed()).isFalse();
    assertThat(r.failure()).hasValue("listener svc: virtual host vh: no route matches /b.B/M");
  }

  @Test
  void anAuthorityNoVirtualHostMatchesFailsNamingTheRouteConfiguration() {
    Snapshot s = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build(),
        routes("r", host("vh", List.of("other.example"), route("only", prefix("/"), cluster("a")))));

    assertThat(s.plan()).request("svc", "/a.A/M").failsWithMessageContaining(
        "listener svc: route configuration r has no virtual host whose domains match authority svc");
  }

  @Test
  void aRedirectRouteFailsItsCallsNamingTheRoute() {
    Snapshot s = Snapshot.of(XdsResources.listener("svc").inlineRouteConfig(routes("", host("vh", List.of("*"),
        Route.newBuilder().setName("moved").setMatch(prefix("/"))
            .setRedirect(RedirectAction.newBuilder().setHostRedirect("new.example")).build()))).build());

    assertThat(s.plan().listener("svc").orElseThrow().inline()).isTrue();
    assertThat(s.plan()).request("svc", "/a.A/M").failsWithMessageContaining(
        "listener svc: virtual host vh: route moved: its redirect action cannot be served by gRPC");
  }

  @Test
  void aRuntimeFractionSplitsTheRequestBetweenItsRouteAndTheNext() {
    Route tenPercent = route("ten-percent", RouteMatch.newBuilder().setPrefix("/")
        .setRuntimeFraction(RuntimeFractionalPercent.newBuilder().setDefaultValue(FractionalPercent.newBuilder()
            .setNumerator(10).setDenominator(FractionalPercent.DenominatorType.HUNDRED))).build(), cluster("b"));
    Snapshot s = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build(),
        routes("r", host("vh", List.of("*"), tenPercent, route("rest", prefix("/"), cluster("a")))));

    RequestRoute r = s.plan().request("svc", "/a.A/M", Map.of());

    assertThat(r.outcomes()).extracting(RequestRoute.Outcome::route, RequestRoute.Outcome::probability)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Optional.of("ten-percent"), Fraction.of(1, 10)),
            org.assertj.core.groups.Tuple.tuple(Optional.of("rest"), Fraction.of(9, 10)));
    assertThat(r.share("b")).isEqualTo(Fraction.of(1, 10));
    assertThat(r.route()).isEmpty();
  }

  @Test
  void aMissingOrNackedRouteConfigurationOrListenerIsNamed() {
    Snapshot missing = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build());
    assertThat(missing.plan().listener("svc").orElseThrow().state()).isEqualTo(ListenerPlan.State.ROUTES_MISSING);
    assertThat(missing.plan()).request("svc", "/a.A/M")
        .failsWithMessageContaining("listener svc: route configuration r is not in the snapshot");

    Snapshot nacked = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build(),
        routes("r", host("vh", List.of("*"), route("bad", prefix("/"), weighted("a", 0, "b", 0)))));
    assertThat(nacked.plan().listener("svc").orElseThrow().state()).isEqualTo(ListenerPlan.State.ROUTES_NACKED);

    assertThat(payments.plan()).request("nope", "/a.A/M")
        .failsWithMessageContaining(
            "route configuration svc-routes has no virtual host whose domains match authority nope");
    assertThat(payments.plan().request("nope", "nope", "/a.A/M", Map.of()).failure())
        .hasValue("listener nope does not exist");
  }

  @Test
  void aBadPathOrAnAmbiguousListenerIsRefused() {
    assertThatThrownBy(() -> payments.plan().request("svc", "pkg.S/M", Map.of()))
        .hasMessageContaining("path must be /service/method");
    Snapshot two = payments.plus(Snapshot.of(XdsResources.listener("other").rdsRouteConfig("svc-routes").build()));
    assertThatThrownBy(() -> two.plan().request("x", "/a.A/M", Map.of()))
        .hasMessage("no listener is named x and the snapshot has several: [svc, other]: name the listener");
  }
}
