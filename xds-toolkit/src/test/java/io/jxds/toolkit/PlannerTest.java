package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.jxds.api.model.LbPolicy;
import io.jxds.testing.XdsResources;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of a cluster's plan, as the balancer applies it. */
class PlannerTest {
  @Test
  void weightedLocalitiesAndEndpointsGetExactShares() {
    ClusterPlan plan = plan(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.weight(3).endpoint("10.0.0.1", 80, HEALTHY, 1).endpoint("10.0.0.2", 80,
            HEALTHY, 3))
        .locality("us", "b", "", l -> l.weight(1).endpoint("10.0.0.3", 80, HEALTHY))
        .build());

    assertThat(plan.state()).isEqualTo(ClusterPlan.State.SERVING);
    assertThat(plan.shareBasis()).isEqualTo(ClusterPlan.ShareBasis.PICK_CYCLE);
    assertThat(plan.locality("us", "a", "").orElseThrow().share()).isEqualTo(Fraction.of(3, 4));
    assertThat(plan.endpoint("10.0.0.1:80").orElseThrow().share()).isEqualTo(Fraction.of(3, 16));
    assertThat(plan.endpoint("10.0.0.2:80").orElseThrow().share()).isEqualTo(Fraction.of(9, 16));
    assertThat(plan.endpoint("10.0.0.3:80").orElseThrow().share()).isEqualTo(Fraction.of(1, 4));
  }

  @Test
  void unhealthyEndpointTakesNothingAndItsNeighboursShareItsPart() {
    ClusterPlan plan = plan(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80, UNHEALTHY)
            .endpoint("10.0.0.3", 80, HEALTHY))
        .build());

    assertThat(plan.endpoint("10.0.0.2:80").orElseThrow().share()).isEqualTo(Fraction.ZERO);
    assertThat(plan.endpoint("10.0.0.1:80").orElseThrow().share()).isEqualTo(Fraction.of(1, 2));
  }

  @Test
  void priorityWithoutUsableEndpointsFailsOverToTheNext() {
    ClusterPlan plan = plan(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.priority(0).endpoint("10.0.0.1", 80, DRAINING))
        .locality("us", "b", "", l -> l.priority(1).endpoint("10.0.0.2", 80, HEALTHY))
        .locality("us", "c", "", l -> l.priority(2).endpoint("10.0.0.3", 80, HEALTHY))
        .build());

    assertThat(plan.servingPriority()).hasValue(1);
    assertThat(plan.nextPriority()).hasValue(2);
    assertThat(plan.priorities()).extracting(PriorityPlan::role).containsExactly(
        PriorityPlan.Role.NO_USABLE_ENDPOINTS, PriorityPlan.Role.SERVING, PriorityPlan.Role.NEXT);
    assertThat(plan.endpoint("10.0.0.2:80").orElseThrow().share()).isEqualTo(Fraction.ONE);
    EndpointPlan standby = plan.endpoint("10.0.0.3:80").orElseThrow();
    assertThat(standby.share()).isEqualTo(Fraction.ZERO);
    assertThat(standby.shareInPriority()).isEqualTo(Fraction.ONE);
  }

  @Test
  void dropCategoriesDrawInOrderIndependently() {
    ClusterPlan plan = plan(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY))
        .drop("throttle", 10, HUNDRED)
        .drop("lb", 10, HUNDRED)
        .build());

    assertThat(plan.drops()).extracting(DropPlan::rate).containsExactly(Fraction.of(1, 10), Fraction.of(9, 100));
    assertThat(plan.dropped()).isEqualTo(Fraction.of(19, 100));
  }

  @Test
  void sharesAreThePickersQuantisedSlotsNotTheRawWeights() {
    // Weights 1, 1 and 5 000 exceed the 4 096-slot cycle: the picker gives slots 1, 1 and 4 094.
    ClusterPlan plan = plan(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY, 1).endpoint("10.0.0.2", 80, HEALTHY, 1)
            .endpoint("10.0.0.3", 80, HEALTHY, 5000))
        .build());

    assertThat(plan.endpoint("10.0.0.1:80").orElseThrow().share()).isEqualTo(Fraction.of(1, 4096));
    assertThat(plan.endpoint("10.0.0.3:80").orElseThrow().share()).isEqualTo(Fraction.of(4094, 4096));
  }

  @Test
  void circuitBreakerTlsAndLoadReportingComeFromTheCluster() {
    ClusterPlan plan = plan(XdsResources.cluster("p").maxRequests(50).lrsSelf().mutualTls("mesh", "spiffe://a").build(),
        XdsResources.endpoints("p").locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build());

    assertThat(plan.maxConcurrentRequests()).isEqualTo(50);
    assertThat(plan.loadReporting()).isTrue();
    assertThat(plan.tls()).hasValueSatisfying(t -> {
      assertThat(t.identityCertificate()).isPresent();
      assertThat(t.subjectAltNameMatchers()).hasSize(1);
    });
  }

  @Test
  void noUsableEndpointSaysWhyWithUnweightedLocalities() {
    ClusterPlan plan = plan(XdsResources.cluster("p").build(), XdsResources.endpoints("p")
        .locality("us", "a", "", l -> l.noWeight().endpoint("10.0.0.1", 80, HEALTHY))
        .locality("us", "b", "", l -> l.endpoint("10.0.0.2", 80, UNHEALTHY))
        .build());

    assertThat(plan.state()).isEqualTo(ClusterPlan.State.NO_USABLE_ENDPOINTS);
    assertThat(plan.detail()).isEqualTo("cluster p has no usable endpoints: localities with load_balancing_weight"
        + " unset or 0 take no traffic: [{region=\"us\", zone=\"a\", sub_zone=\"\"}]");
    assertThat(plan.servingPriority()).isEmpty();
  }

  @Test
  void missingAndNackedResourcesAreStatesNotPlans() {
    TrafficPlan plan = Snapshot.of(
        XdsResources.cluster("missing").build(),
        XdsResources.cluster("bad").type(Cluster.DiscoveryType.STRICT_DNS).build(),
        XdsResources.cluster("badeds").build(),
        XdsResources.endpoints("badeds").locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY, 0)).build())
        .plan();

    assertThat(plan.clusters()).extracting(ClusterPlan::state).containsExactly(ClusterPlan.State.ENDPOINTS_MISSING,
        ClusterPlan.State.CLUSTER_NACKED, ClusterPlan.State.ENDPOINTS_NACKED);
    assertThat(plan.cluster("badeds").orElseThrow().detail()).contains("load_balancing_weight must be at least 1");
  }

  @Test
  void ringHashSharesAreTheRingsArcsAndSumToOne() {
    ClusterPlan plan = plan(XdsResources.cluster("p").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        XdsResources.endpoints("p")
            .locality("us", "a", "", l -> l.weight(1).endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2", 80,
                HEALTHY))
            .locality("us", "b", "", l -> l.weight(2).endpoint("10.0.0.3", 80, HEALTHY))
            .build());

    assertThat(plan.shareBasis()).isEqualTo(ClusterPlan.ShareBasis.RANDOM_HASHES);
    assertThat(plan.lbPolicy()).hasValue(LbPolicy.RingHash.defaults());
    List<EndpointPlan> endpoints = plan.endpoints();
    assertThat(endpoints.stream().map(EndpointPlan::share).reduce(Fraction.ZERO, Fraction::plus))
        .isEqualTo(Fraction.ONE);
    // A42 weights 1/6, 1/6, 2/3, on a ring of about 1 024 entries: within a few points.
    assertThat(endpoints.get(2).share().toDouble()).isBetween(0.6, 0.73);
    assertThat(endpoints.get(0).share().toDouble()).isBetween(0.12, 0.21);
  }

  @Test
  void maglevSharesAreTheTablesSlots() {
    ClusterPlan plan = plan(XdsResources.cluster("p").lbPolicy(Cluster.LbPolicy.MAGLEV).build(),
        XdsResources.endpoints("p")
            .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY, 1).endpoint("10.0.0.2", 80, HEALTHY, 3))
            .build());

    Fraction heavy = plan.endpoint("10.0.0.2:80").orElseThrow().share();
    assertThat(heavy.plus(plan.endpoint("10.0.0.1:80").orElseThrow().share())).isEqualTo(Fraction.ONE);
    assertThat(heavy.toDouble()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(0.001));
  }

  private static ClusterPlan plan(com.google.protobuf.Message cluster, com.google.protobuf.Message endpoints) {
    TrafficPlan plan = Snapshot.of(cluster, endpoints).plan();
    assertThat(plan.check().anyNacked()).as("%s", plan.check().nacked()).isFalse();
    return plan.clusters().get(0);
  }
}
