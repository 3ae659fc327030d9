package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import org.junit.jupiter.api.Test;

/** Sets up {@link AckLatencyBenchmark} and calls each method a few times: never a timed run. */
class AckLatencyBenchmarkTest {
  @Test
  void everyDeliveryIsAckedAndTheBalancerKeepsUp() throws Exception {
    AckLatencyBenchmark bench = new AckLatencyBenchmark();
    bench.endpoints = 1000;
    bench.setUp();
    try {
      long pickersBefore = bench.helper.pickerUpdates();
      DiscoveryRequest first = bench.ack();
      bench.settle();
      DiscoveryRequest second = bench.untilCallbacksDone();
      assertThat(first.getVersionInfo()).isEqualTo("1");
      assertThat(second.getVersionInfo()).isEqualTo("2");
      assertThat(first.hasErrorDetail()).isFalse();
      // Each update reached the balancer (a new picker) before the next was handed over.
      assertThat(bench.helper.pickerUpdates()).isGreaterThanOrEqualTo(pickersBefore + 2);
      assertThat(bench.helper.subchannelCount()).isEqualTo(1000);
      assertThat(bench.decode()).isEqualTo(1);
      assertThat(bench.handoff()).isPositive();
    } finally {
      bench.tearDown();
    }
  }
}
