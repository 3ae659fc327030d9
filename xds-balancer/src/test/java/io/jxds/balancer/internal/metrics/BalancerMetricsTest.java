package io.jxds.balancer.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.LocalityId;
import io.jxds.client.internal.metrics.Telemetry;
import io.jxds.testing.InMemoryMetrics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The balancer's metric names, labels and failover arithmetic, read back through the SDK. */
class BalancerMetricsTest {
  private static final Attributes CLUSTER = Attributes.of(
      AttributeKey.stringKey("grpc.target"), "xds-cluster:///payments",
      AttributeKey.stringKey("jxds.cluster"), "payments");

  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private final ClusterMetrics cluster =
      BalancerMetrics.cluster(Telemetry.of(metrics.openTelemetry()), "xds-cluster:///payments", "payments");

  @Test
  void servingPriorityMovesCountFailoversAndFailbacks() {
    cluster.servingPriority(0, -1); // first choice: neither
    cluster.servingPriority(1, 0); // failover
    cluster.servingPriority(-1, 1); // all failed: neither
    cluster.servingPriority(2, 1); // failover (from the last that served)
    cluster.servingPriority(0, 2); // failback

    assertThat(metrics.value("jxds.lb.priority_failovers", CLUSTER)).isEqualTo(2);
    assertThat(metrics.value("jxds.lb.priority_failbacks", CLUSTER)).isEqualTo(1);
    assertThat(metrics.value("jxds.lb.serving_priority", CLUSTER)).isZero();
  }

  @Test
  void dropsRefusalsPicksAndInFlightCarryTheirLabels() {
    cluster.drops("throttle").increment();
    cluster.drops("throttle").increment();
    cluster.circuitBreakerRefusals().increment();
    MetricCounter zoneA = cluster.localityPicks(new LocalityId("r", "a", ""));
    for (int i = 0; i < 3; i++) {
      zoneA.increment();
    }
    AtomicLong open = new AtomicLong(4);
    cluster.inFlight(open::get);

    assertThat(metrics.value("jxds.lb.rpcs_dropped",
        CLUSTER.toBuilder().put("jxds.drop_category", "throttle").build())).isEqualTo(2);
    assertThat(metrics.value("jxds.lb.rpcs_refused", CLUSTER)).isEqualTo(1);
    assertThat(metrics.value("jxds.lb.locality_picks",
        CLUSTER.toBuilder().put("grpc.lb.locality", "r/a/").build())).isEqualTo(3);
    assertThat(metrics.value("jxds.lb.rpcs_in_flight", CLUSTER)).isEqualTo(4);
    cluster.close();
    assertThat(metrics.points("jxds.lb.rpcs_in_flight")).isEmpty();
  }

  @Test
  void withoutTelemetryNothingIsCreated() {
    assertThat(BalancerMetrics.cluster(Telemetry.NONE, "t", "c")).isSameAs(ClusterMetrics.NONE);
  }
}
