package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Runs {@link FailbackLatency} for one short trial per client: both fail over to priority 1 and
 * come back to priority 0 after the servers restart; no figure is judged.
 */
class FailbackLatencyTest {
  @Test
  void bothClientsFailOverAndComeBack() throws Exception {
    FailbackLatency.Figures figures = FailbackLatency.measure(1, 0.5, 0);

    assertThat(figures.trials()).hasSize(2);
    assertThat(figures.trials()).extracting(FailbackLatency.Trial::client)
        .containsExactlyInAnyOrder(FailbackLatency.Client.values());
    assertThat(figures.trials()).allSatisfy(t -> {
      assertThat(t.failoverMillis()).isBetween(0L, 30_000L);
      assertThat(t.connectedMillis()).isBetween(0L, 30_000L);
      assertThat(t.firstMillis()).isBetween(t.connectedMillis(), 30_000L);
      assertThat(t.allMillis()).isBetween(t.firstMillis(), 30_000L);
    });
    assertThat(figures.format()).contains("jxds ", "grpc-java ", "jxds / grpc-java");
  }
}
