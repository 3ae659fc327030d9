package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.internal.decode.EndpointsDecoder;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import org.junit.jupiter.api.Test;

/** Smoke test: sets up the benchmark state and calls each benchmark method; never a timed run. */
class DecodeBenchmarkTest {
  @Test
  void everyBenchmarkMethodReturnsTheWholeAssignment() throws Exception {
    DecodeBenchmark bench = new DecodeBenchmark();
    bench.setUp();
    for (int i = 0; i < 3; i++) {
      assertThat(bench.parse().getEndpointsCount()).isEqualTo(100);
      assertThat(bench.parseAndWalk()).isGreaterThan(10_000L * 8080);
      assertWhole(bench.decode());
      assertWhole(bench.decodeTree());
      assertThat(bench.decode()).isEqualTo(bench.decodeTree());
      // The benchmark must measure the one pass itself, not its fallback.
      assertThat(EndpointsDecoder.decodeInOnePass(bench.claByteString)).contains(bench.decodeTree());
      assertWhole(bench.unpackAndDecode());
    }
  }

  @Test
  void cpuRatioHarnessRuns() throws Exception {
    double[] m = DecodeCpuRatio.measure(3);
    assertThat(m).hasSize(6);
    assertThat(m[2]).isPositive(); // decode / parse; a handful of cold rounds says nothing more
  }

  private static void assertWhole(EndpointsUpdate update) {
    assertThat(update.localities()).hasSize(100);
    assertThat(update.priorityCount()).isEqualTo(3);
    assertThat(update.localities().stream().mapToInt(l -> l.endpoints().size()).sum()).isEqualTo(10_000);
    assertThat(update.localities()).allMatch(Locality::hasUsableEndpoint);
    assertThat(update.dropOverloads()).hasSize(1);
  }
}
