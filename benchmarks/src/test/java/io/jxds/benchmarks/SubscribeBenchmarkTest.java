package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Smoke test: the subscribe benchmark's methods run on a small state and do what they say. */
class SubscribeBenchmarkTest {
  private static long[] run(java.util.function.ToLongFunction<SubscribeBenchmark.Client> method) {
    SubscribeBenchmark.Client c = new SubscribeBenchmark.Client();
    c.n = 200;
    c.setUp();
    try {
      return new long[] {method.applyAsLong(c), c.names()};
    } finally {
      c.tearDown();
    }
  }

  @Test
  void oneTurnSendsOneRequestSeparateTurnsOneEach() {
    SubscribeBenchmark b = new SubscribeBenchmark();
    long[] oneTurn = run(b::oneTurn);
    assertThat(oneTurn[0]).isEqualTo(1);
    assertThat(oneTurn[1]).isEqualTo(201);
    long[] separate = run(b::separateTurns);
    assertThat(separate[0]).isEqualTo(200);
    assertThat(separate[1]).isEqualTo(20_300); // 2 + 3 + ... + 201 names
    assertThat(run(b::baseline)[0]).isPositive();
  }
}
