package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Runs {@link RestartLatency} for two short restarts: the scenario works, no figure is judged. */
class RestartLatencyTest {
  @Test
  void clientComesBackAfterEachRestart() throws Exception {
    long[] millis = RestartLatency.measure(2, 7, 0.2, 0.1, 0.3, 0.1);
    assertThat(millis).hasSize(2);
    assertThat(java.util.Arrays.stream(millis).boxed().toList()).allSatisfy(m -> assertThat(m).isBetween(0L, 60_000L));
    assertThat(RestartLatency.summary(millis)).startsWith("restarts 2: ");
  }
}
