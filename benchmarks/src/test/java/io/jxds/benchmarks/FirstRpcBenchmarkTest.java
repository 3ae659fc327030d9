package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Sets up {@link FirstRpcBenchmark} and runs each operation a few times: never a timed run. */
class FirstRpcBenchmarkTest {
  @Test
  void bothFirstRpcsReachTheirBackend() throws Exception {
    FirstRpcBenchmark bench = new FirstRpcBenchmark();
    bench.setUp();
    try {
      for (int i = 0; i < 3; i++) {
        assertThat(bench.plaintextFirstRpc().getValue().toByteArray()).containsExactly(1);
        assertThat(bench.mutualTlsFirstRpc().getValue().toByteArray()).containsExactly(1);
      }
    } finally {
      bench.tearDown();
    }
  }
}
