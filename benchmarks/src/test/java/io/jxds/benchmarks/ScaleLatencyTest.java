package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Smoke test: the scale benchmark runs at a small N in both protocols and measures something. */
class ScaleLatencyTest {
  @Test
  void bothProtocolsAnswerEveryWatchAndCountTheBytes() throws Exception {
    ScaleLatency.Figures sotw = ScaleLatency.measure(40, false);
    ScaleLatency.Figures delta = ScaleLatency.measure(40, true);
    for (ScaleLatency.Figures f : new ScaleLatency.Figures[] {sotw, delta}) {
      assertThat(f.bytes()).isPositive();
      assertThat(f.responses()).isPositive();
      assertThat(f.format()).contains("N=   40");
    }
  }
}
