package io.jxds.toolkit.assertj;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.jxds.testing.XdsResources;
import io.jxds.toolkit.PlanDiff;
import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.TrafficPlan;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The assertions pass on what the plan says and fail, naming what differs, on what it does not. */
class ToolkitAssertionsTest {
  // docs/toolkit.md:begin
  private final Snapshot payments = Snapshot.of(XdsResources.cluster("payments").edsServiceName("payments-eds").build(),
      XdsResources.endpoints("payments-eds")
          .locality("us", "a", "", l -> l.weight(3).endpoint("10.0.0.3", 8080, HEALTHY, 1)
              .endpoint("10.0.0.4", 8080, HEALTHY, 1))
          .locality("us", "b", "", l -> l.weight(1).endpoint("10.0.0.5", 8080, HEALTHY)
              .endpoint("10.0.0.6", 8080, UNHEALTHY))
          .build());
  // docs/toolkit.md:end

  private final Snapshot broken = Snapshot.of(XdsResources.cluster("payments").edsServiceName("payments-eds").build(),
      XdsResources.endpoints("payments-eds")
          .locality("us", "a", "", l -> l.priority(1).endpoint("10.0.0.3", 8080, HEALTHY))
          .build());

  @Test
  void endpointShares() {
    // docs/toolkit.md:begin
    assertThat(payments.plan()).hasNoNacks().cluster("payments").isServing().servesFromPriority(0)
        .endpoint("10.0.0.3:8080").hasShare(0.375);
    assertThat(payments.plan()).cluster("payments").endpoint("10.0.0.6:8080").takesNoTraffic();
    assertThat(payments.plan()).cluster("payments").locality("us", "b", "").hasShare(0.25);
    // docs/toolkit.md:end

    assertThatThrownBy(() -> assertThat(payments.plan()).cluster("payments").endpoint("10.0.0.5:8080").hasShare(0.5))
        .isInstanceOf(AssertionError.class)
        .hasMessage("Expected endpoint 10.0.0.5:8080 of cluster payments to take 0.5 of its RPCs, but it takes"
            + " 1/4 (0.250000)");
    assertThatThrownBy(() -> assertThat(payments.plan()).cluster("orders"))
        .hasMessage("Expected a cluster named orders, but the plan has [payments]");
  }

  @Test
  void rejections() {
    // docs/toolkit.md:begin
    assertThat(broken.check()).accepts("payments").rejects("payments-eds").withMessageContaining("priority");
    // docs/toolkit.md:end

    assertThatThrownBy(() -> assertThat(payments.check()).rejects("payments-eds"))
        .hasMessage("Expected a client to NACK payments-eds, but it accepts it");
    assertThatThrownBy(() -> assertThat(broken.check()).hasNoNacks())
        .hasMessageContaining("EDS \"payments-eds\" (resource #1): ClusterLoadAssignment \"payments-eds\"");
  }

  @Test
  void diffs() {
    assertThat(PlanDiff.between(payments, payments)).changesNothing();
    // docs/toolkit.md:begin
    assertThat(PlanDiff.between(payments, broken)).movesShareOf("payments", "10.0.0.5:8080", -0.25);
    // docs/toolkit.md:end

    assertThatThrownBy(() -> assertThat(PlanDiff.between(payments, broken)).hasNoNacks())
        .hasMessageContaining("EDS \"payments-eds\": NACK accepted -> NACKED:");
    assertThatThrownBy(() -> assertThat(PlanDiff.between(payments, broken)).keepsEveryClusterServing())
        .hasMessageContaining("payments: STATE SERVING -> ENDPOINTS_NACKED");
  }

  /** svc: x-version v2 goes to payments-v2; /pkg.S/ splits 90/10 between payments and payments-v2. */
  private final Snapshot routed = Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("svc-routes").build(),
      RouteConfiguration.newBuilder().setName("svc-routes").addVirtualHosts(VirtualHost.newBuilder().setName("vh")
          .addDomains("svc")
          .addRoutes(Route.newBuilder().setName("v2-by-header").setMatch(RouteMatch.newBuilder().setPrefix("/")
              .addHeaders(HeaderMatcher.newBuilder().setName("x-version").setExactMatch("v2")))
              .setRoute(RouteAction.newBuilder().setCluster("payments-v2")))
          .addRoutes(Route.newBuilder().setName("split").setMatch(RouteMatch.newBuilder().setPrefix("/pkg.S/"))
              .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                  .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("payments")
                      .setWeight(UInt32Value.of(90)))
                  .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("payments-v2")
                      .setWeight(UInt32Value.of(10))))))).build());

  @Test
  void requests() {
    // docs/toolkit.md:begin
    assertThat(routed.plan()).request("svc", "/pkg.S/M", Map.of("x-version", "v2")).routesTo("payments-v2");
    assertThat(routed.plan()).request("svc", "/pkg.S/M").routesTo("payments", "payments-v2")
        .withShare("payments-v2", 0.1);
    assertThat(routed.plan()).request("svc", "/other.T/M").failsWithMessageContaining("no route matches");
    // docs/toolkit.md:end

    assertThatThrownBy(() -> assertThat(routed.plan()).request("svc", "/pkg.S/M").routesTo("payments"))
        .hasMessage("Expected request svc /pkg.S/M to go to [payments], but it goes to [payments 9/10 (0.900000),"
            + " payments-v2 1/10 (0.100000)]");
    assertThatThrownBy(() -> assertThat(routed.plan()).request("svc", "/other.T/M").routesTo("payments"))
        .hasMessage("Expected request svc /other.T/M to go to [payments], but it fails: listener svc: virtual host vh:"
            + " no route matches /other.T/M");
  }

  @Test
  void readmeExample() throws Exception {
    Path generated = Path.of(getClass().getResource("/examples/routes.json").toURI());
    // README.md:begin
    TrafficPlan plan = Snapshot.read(generated).plan(); // or Snapshot.of(the protos your control plane builds)
    assertThat(plan).hasNoNacks().request("payments.example.com", "/payments.Payments/Charge")
        .routesTo("payments", "payments-v2").withShare("payments-v2", 0.1);
    assertThat(plan).cluster("payments").endpoint("10.0.0.3:8080").hasShare(0.5);
    // README.md:end
  }
}
