package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.jxds.testing.XdsResources;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a push changes for traffic. */
class PlanDiffTest {
  private static Snapshot twoLocalities(long weightA, long weightB, HealthStatus healthB) {
    return Snapshot.of(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.weight(weightA).endpoint("10.0.0.1", 80, HEALTHY))
        .locality("us", "b", "", l -> l.weight(weightB).endpoint("10.0.0.2", 80, healthB))
        .build());
  }

  @Test
  void sameSnapshotChangesNothing() {
    assertThat(PlanDiff.between(twoLocalities(1, 1, HEALTHY), twoLocalities(1, 1, HEALTHY)).isEmpty()).isTrue();
  }

  @Test
  void reweightingMovesSharesByExactAmounts() {
    PlanDiff diff = PlanDiff.between(twoLocalities(1, 1, HEALTHY), twoLocalities(3, 1, HEALTHY));

    assertThat(diff.ofKind(Change.Kind.ENDPOINT_SHARE)).containsExactly(
        new Change(Change.Kind.ENDPOINT_SHARE, "payments", "10.0.0.1:80", "1/2", "3/4",
            Optional.of(Fraction.of(1, 4))),
        new Change(Change.Kind.ENDPOINT_SHARE, "payments", "10.0.0.2:80", "1/2", "1/4",
            Optional.of(Fraction.of(-1, 4))));
    assertThat(diff.ofKind(Change.Kind.LOCALITY_SHARE)).extracting(Change::subject).containsExactly("us/a/", "us/b/");
    assertThat(diff.changes().get(0).toString())
        .isEqualTo("payments us/a/: LOCALITY_SHARE 1/2 -> 3/4 (+25.000 points)");
  }

  @Test
  void priorityChangeAndEmptiedClusterAreReported() {
    Snapshot before = Snapshot.of(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.priority(0).endpoint("10.0.0.1", 80, HEALTHY))
        .locality("us", "b", "", l -> l.priority(1).endpoint("10.0.0.2", 80, HEALTHY)).build());
    Snapshot failover = Snapshot.of(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.priority(0).endpoint("10.0.0.1", 80, UNHEALTHY))
        .locality("us", "b", "", l -> l.priority(1).endpoint("10.0.0.2", 80, HEALTHY)).build());
    Snapshot empty = Snapshot.of(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.priority(0).endpoint("10.0.0.1", 80, UNHEALTHY)).build());

    assertThat(PlanDiff.between(before, failover).ofKind(Change.Kind.SERVING_PRIORITY)).singleElement()
        .satisfies(c -> assertThat(c.before() + "->" + c.after()).isEqualTo("0->1"));
    PlanDiff emptied = PlanDiff.between(before, empty);
    assertThat(emptied.ofKind(Change.Kind.STATE)).singleElement()
        .satisfies(c -> assertThat(c.after()).isEqualTo("NO_USABLE_ENDPOINTS: cluster p has no usable endpoints"));
    assertThat(emptied.ofKind(Change.Kind.SERVING_PRIORITY)).singleElement()
        .satisfies(c -> assertThat(c.after()).isEqualTo("none"));
  }

  @Test
  void resourcesTheClientWouldNackAfterThePushAreListed() {
    Snapshot after = Snapshot.of(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.weight(1).endpoint("10.0.0.1", 80, HEALTHY, 0)).build());

    PlanDiff diff = PlanDiff.between(twoLocalities(1, 1, HEALTHY), after);
    assertThat(diff.ofKind(Change.Kind.NACK)).singleElement().satisfies(c -> {
      assertThat(c.subject()).isEqualTo("EDS \"payments\"");
      assertThat(c.before()).isEqualTo("accepted");
      assertThat(c.after()).contains("load_balancing_weight must be at least 1");
    });
    assertThat(diff.cluster("payments")).extracting(Change::kind).contains(Change.Kind.STATE);
  }

  @Test
  void addedAndRemovedClusters() {
    Snapshot before = Snapshot.of(XdsResources.cluster("old").build());
    Snapshot after = Snapshot.of(XdsResources.cluster("new").build());

    assertThat(PlanDiff.between(before, after).changes()).extracting(Change::kind)
        .containsExactly(Change.Kind.CLUSTER_ADDED, Change.Kind.CLUSTER_REMOVED);
  }

  private static Snapshot routed(io.envoyproxy.envoy.config.route.v3.Route... routes) {
    return Snapshot.of(XdsResources.listener("svc").rdsRouteConfig("r").build(),
        RoutePlanTest.routes("r", RoutePlanTest.host("vh", java.util.List.of("*"), routes)));
  }

  @Test
  void routeChangesAreReported() {
    Snapshot before = routed(
        RoutePlanTest.route("split", RoutePlanTest.prefix("/a.A/"), RoutePlanTest.weighted("a", 90, "b", 10)),
        RoutePlanTest.route("old", RoutePlanTest.prefix("/b.B/"), RoutePlanTest.cluster("c")),
        RoutePlanTest.route("rest", RoutePlanTest.prefix("/"), RoutePlanTest.cluster("a")));
    Snapshot after = routed(
        RoutePlanTest.route("split", RoutePlanTest.prefix("/a.A/"), RoutePlanTest.weighted("a", 50, "b", 50)),
        RoutePlanTest.route("new", RoutePlanTest.prefix("/d.D/"), RoutePlanTest.cluster("b")),
        RoutePlanTest.route("rest", RoutePlanTest.prefix("/"), RoutePlanTest.cluster("a")));

    PlanDiff diff = PlanDiff.between(before, after);

    assertThat(diff.ofKind(Change.Kind.ROUTE_SHARE)).containsExactly(
        new Change(Change.Kind.ROUTE_SHARE, "a", "route svc/vh/split", "9/10", "1/2", Optional.of(Fraction.of(-2, 5))),
        new Change(Change.Kind.ROUTE_SHARE, "b", "route svc/vh/split", "1/10", "1/2", Optional.of(Fraction.of(2, 5))));
    assertThat(diff.ofKind(Change.Kind.ROUTE_ADDED)).singleElement()
        .satisfies(c -> assertThat(c.subject()).isEqualTo("route svc/vh/new"))
        .satisfies(c -> assertThat(c.after()).isEqualTo("#1 prefix \"/d.D/\" -> b"));
    assertThat(diff.ofKind(Change.Kind.ROUTE_REMOVED)).extracting(Change::subject).containsExactly("route svc/vh/old");
    assertThat(diff.ofKind(Change.Kind.CLUSTER_UNROUTED)).singleElement()
        .satisfies(c -> assertThat(c.cluster()).isEqualTo("c"));
    assertThat(PlanDiff.between(before, before).isEmpty()).isTrue();
  }
}
