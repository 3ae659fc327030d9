package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.Subchannel;
import io.opentelemetry.api.common.Attributes;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Sets up each balancer benchmark and calls its methods a few times: never a timed run. */
class BalancerBenchmarksSmokeTest {

  @Test
  void pickBenchmarkPicksReadySubchannelsOnBothSides() {
    PickBenchmark bench = new PickBenchmark();
    bench.setUp();
    Set<Subchannel> jxds = new HashSet<>();
    Set<Subchannel> roundRobin = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      PickResult a = bench.jxdsPriorityLocalityEndpoint();
      PickResult b = bench.grpcRoundRobin();
      assertThat(a.getStatus().isOk()).isTrue();
      assertThat(b.getStatus().isOk()).isTrue();
      jxds.add(a.getSubchannel());
      roundRobin.add(b.getSubchannel());
    }
    // 2 000 picks reach many of the 1 000 endpoints on both sides.
    assertThat(jxds).hasSizeGreaterThan(500).doesNotContainNull();
    assertThat(roundRobin).hasSize(1_000).doesNotContainNull();
  }

  @Test
  void pickBenchmarkPoliciesPickReadySubchannels() {
    PickBenchmark bench = new PickBenchmark();
    bench.setUp();
    Set<Subchannel> leastRequest = new HashSet<>();
    Set<Subchannel> ring = new HashSet<>();
    Set<Subchannel> maglev = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      leastRequest.add(bench.jxdsLeastRequest().getSubchannel());
      leastRequest.add(bench.jxdsLeastRequestEqualWeights().getSubchannel());
      ring.add(bench.jxdsRingHash().getSubchannel());
      ring.add(bench.jxdsRingHashWeighted().getSubchannel());
      ring.add(bench.jxdsRingHashRandom().getSubchannel());
      ring.add(bench.jxdsRingHashWeightedRandom().getSubchannel());
      maglev.add(bench.jxdsMaglev().getSubchannel());
      maglev.add(bench.jxdsMaglevWeighted().getSubchannel());
    }
    assertThat(leastRequest).hasSizeGreaterThan(500).doesNotContainNull();
    // The four hashed benchmarks share one cycle of 1 024 hashes: each sees 256 of them here.
    assertThat(ring).hasSizeGreaterThan(400).doesNotContainNull();
    assertThat(maglev).hasSizeGreaterThan(400).doesNotContainNull();
  }

  @Test
  void hashTableBuildBenchmarkRebuildsWithoutNewSubchannels() {
    HashTableBuildBenchmark bench = new HashTableBuildBenchmark();
    bench.endpoints = 1000;
    bench.policy = "maglev";
    bench.maxWeight = 100;
    bench.setUp();
    int subchannels = bench.helper.subchannelCount();
    Object first = bench.rebuildAfterWeightChange();
    Object second = bench.rebuildAfterWeightChange();
    assertThat(subchannels).isEqualTo(1_000);
    assertThat(bench.helper.subchannelCount()).isEqualTo(subchannels);
    assertThat(first).isNotNull().isNotSameAs(second);
  }

  @Test
  void metricsPickBenchmarkPicksAndCountsWhenTheSdkIsOn() {
    for (String metrics : new String[] {"off", "api", "sdk"}) {
      MetricsPickBenchmark bench = new MetricsPickBenchmark();
      bench.metrics = metrics;
      bench.setUp();
      Set<Subchannel> picked = new HashSet<>();
      for (int i = 0; i < 2_000; i++) {
        PickResult result = bench.pick();
        assertThat(result.getStatus().isOk()).isTrue();
        picked.add(result.getSubchannel());
      }
      Map<Attributes, Long> localityPicks = bench.sdkMetrics == null
          ? Map.of() : bench.sdkMetrics.points("jxds.lb.locality_picks");
      bench.tearDown();
      assertThat(picked).as(metrics).hasSizeGreaterThan(500).doesNotContainNull();
      if (metrics.equals("sdk")) {
        // Every pick lands in the one locality of the assignment, and is counted there once.
        assertThat(localityPicks).as("jxds.lb.locality_picks by attributes").hasSize(1);
        assertThat(localityPicks.values()).as("jxds.lb.locality_picks").containsExactly(2_000L);
      }
    }
  }

  @Test
  void rebuildBenchmarkAppliesWeightChangesWithoutNewSubchannels() {
    PickerRebuildBenchmark bench = new PickerRebuildBenchmark();
    bench.layout = "10x1000";
    bench.maxWeight = 4_000_000_000L;
    bench.setUp();
    int subchannels = bench.helper.subchannelCount();
    Object first = bench.rebuildAfterWeightChange();
    Object second = bench.rebuildAfterWeightChange();
    assertThat(subchannels).isEqualTo(10_000);
    assertThat(bench.helper.subchannelCount()).isEqualTo(subchannels);
    assertThat(first).isNotNull().isNotSameAs(second);
  }
}
