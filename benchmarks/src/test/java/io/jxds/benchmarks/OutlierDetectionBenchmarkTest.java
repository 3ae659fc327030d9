package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.LoadBalancer.PickResult;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sets up {@link OutlierDetectionBenchmark} and calls it a few times: never a timed run. */
class OutlierDetectionBenchmarkTest {
  @ParameterizedTest
  @CsvSource({"8, off", "8, on", "1000, off", "1000, on"})
  void pickAndCallReachesEveryEndpoint(int endpoints, String outliers) {
    OutlierDetectionBenchmark bench = new OutlierDetectionBenchmark();
    bench.endpoints = endpoints;
    bench.outliers = outliers;
    bench.setUp();
    try {
      Set<Object> picked = new HashSet<>();
      for (int i = 0; i < endpoints * 3; i++) {
        PickResult result = bench.pickAndCall();
        assertThat(result.getStatus().isOk()).isTrue();
        picked.add(result.getSubchannel().getAllAddresses().get(0));
      }
      assertThat(picked).hasSize(endpoints);
    } finally {
      bench.tearDown();
    }
  }

  @Test
  void sweepTakesEveryEndpointsCountsAndEjectsNone() {
    OutlierDetectionBenchmark.Sweep sweep = new OutlierDetectionBenchmark.Sweep();
    sweep.setUp();
    try {
      sweep.calls();
      sweep.sweep();
      assertThat(sweep.detector.ejected()).isEmpty();
      assertThat(sweep.counters).hasSize(OutlierDetectionBenchmark.Sweep.ENDPOINTS).doesNotContainNull();
    } finally {
      sweep.tearDown();
    }
  }
}
