package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proof that a plan is what happens: the same resources go to the planner and, over
 * FakeAdsServer, to a real jxds channel ({@code xds-cluster:///}) in front of real backends; the
 * RPCs each backend answers, and the ones dropped, match the planned shares within statistical
 * bounds (a window of 2 000 RPCs, each share within 3 points: more than 3 standard deviations for
 * every share here; windows are retried until one matches, for at most 10 s, so connection
 * warm-up does not count).
 */
class PlanMatchesRealityTest {
  private static final int WINDOW = 2000;
  private static final double TOLERANCE = 0.03;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void weightedLocalitiesAndEndpointsWithAnUnhealthyOne() {
    List<TestBackend> b = bed.backends().start(4);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
            .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 2))
        .locality("us", "b", "", l -> l.weight(1).endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY)
            .endpoint(b.get(3).ip(), b.get(3).port(), UNHEALTHY))
        .build(), b);
  }

  @Test
  void failedOverPriority() {
    List<TestBackend> b = bed.backends().start(4);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.priority(0).endpoint(b.get(0).ip(), b.get(0).port(), DRAINING))
        .locality("us", "b", "", l -> l.priority(1).weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
        .locality("us", "c", "", l -> l.priority(1).weight(1).endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY))
        .locality("us", "d", "", l -> l.priority(2).endpoint(b.get(3).ip(), b.get(3).port(), HEALTHY))
        .build(), b);
  }

  @Test
  void drops() {
    List<TestBackend> b = bed.backends().start(2);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
            .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
        .drop("throttle", 20, HUNDRED)
        .drop("lb", 10, HUNDRED)
        .build(), b);
  }

  @Test
  void leastRequestWithUnequalWeights() {
    List<TestBackend> b = bed.backends().start(2);
    assertPlanHolds(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST).build(),
        XdsResources.endpoints("payments")
            .locality("us", "a", "", l -> l.endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
                .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
            .build(), b);
  }

  @Test
  void ringHashWithRandomRequestHashes() {
    List<TestBackend> b = bed.backends().start(3);
    assertPlanHolds(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        XdsResources.endpoints("payments")
            .locality("us", "a", "", l -> l.weight(1).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
            .locality("us", "b", "", l -> l.weight(2).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY)
                .endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY))
            .build(), b);
  }

  /** Plans the resources, serves the same ones, and waits for a window of RPCs that splits as planned. */
  private void assertPlanHolds(Cluster cluster, ClusterLoadAssignment endpoints, List<TestBackend> backends) {
    ClusterPlan plan = Snapshot.of(cluster, endpoints).plan().cluster(cluster.getName()).orElseThrow();
    assertThat(plan.state()).isEqualTo(ClusterPlan.State.SERVING);
    double kept = 1 - plan.dropped().toDouble();
    Map<String, Double> expected = new LinkedHashMap<>();
    for (TestBackend backend : backends) {
      String address = backend.ip() + ":" + backend.port();
      expected.put(backend.name(), plan.endpoint(address).orElseThrow().share().toDouble() * kept);
    }
    expected.put(BackendCalls.FAILED, plan.dropped().toDouble());

    bed.ads().setClusters(cluster);
    bed.ads().setEndpoints(endpoints);
    Map<String, Integer> window = BackendCalls.awaitCalls(bed.newChannel(cluster.getName()), WINDOW,
        Duration.ofSeconds(10), split -> expected.entrySet().stream()
            .allMatch(e -> Math.abs(BackendCalls.share(split, e.getKey()) - e.getValue()) <= TOLERANCE));

    for (Map.Entry<String, Double> e : expected.entrySet()) {
      assertThat(BackendCalls.share(window, e.getKey())).as("%s, planned %s", e.getKey(), e.getValue())
          .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(TOLERANCE));
    }
  }
}
