package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Smoke test: the scale benchmark runs at a small N in both protocols and both modes and measures
 * something; in channels mode every channel's RPC reached the backend (the run fails otherwise).
 */
class ScaleLatencyTest {
  @Test
  void bothProtocolsAnswerEveryWatchAndCountTheBytes() throws Exception {
    ScaleLatency.Figures sotw = ScaleLatency.measure(40, false, false);
    ScaleLatency.Figures delta = ScaleLatency.measure(40, true, false);
    for (ScaleLatency.Figures f : new ScaleLatency.Figures[] {sotw, delta}) {
      assertThat(f.bytes()).isPositive();
      assertThat(f.responses()).isPositive();
      assertThat(f.format()).contains("watches", "N=   40");
    }
  }

  @Test
  void bothProtocolsAnswerAnRpcOnEveryChannel() throws Exception {
    ScaleLatency.Figures sotw = ScaleLatency.measure(20, false, true);
    ScaleLatency.Figures delta = ScaleLatency.measure(20, true, true);
    for (ScaleLatency.Figures f : new ScaleLatency.Figures[] {sotw, delta}) {
      assertThat(f.bytes()).isPositive();
      assertThat(f.format()).contains("channels", "N=   20");
    }
  }
}
