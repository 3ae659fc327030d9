package io.jxds.benchmarks;

import io.grpc.ConnectivityState;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to apply a weight change of every one of 10 000 READY endpoints: the config diff (no
 * connection is touched) plus rebuilding every endpoint picker and the locality picker. Each
 * invocation alternates between two configs with the same endpoints and different weights.
 * {@code maxWeight} 100 keeps each locality's weights exact; 4 000 000 000 forces quantisation to
 * 64 Ki slots per locality (the worst case).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PickerRebuildBenchmark {
  @Param({"100x100", "10x1000"})
  public String layout;

  @Param({"100", "4000000000"})
  public long maxWeight;

  FakeLbHelper helper;
  PriorityBalancer balancer;
  PriorityConfig[] configs;
  int next;

  @Setup
  public void setUp() {
    String[] parts = layout.split("x");
    int localities = Integer.parseInt(parts[0]);
    int endpoints = Integer.parseInt(parts[1]);
    helper = FakeLbHelper.forBenchmarks(false);
    balancer = new PriorityBalancer(helper, TestRandom.seeded(1));
    configs = new PriorityConfig[] {
        BenchConfigs.priority(localities, endpoints, maxWeight, TestRandom.seeded(2)),
        BenchConfigs.priority(localities, endpoints, maxWeight, TestRandom.seeded(3))};
    helper.run(() -> balancer.acceptConfig(configs[0]));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("not READY: " + helper.state());
    }
  }

  @Benchmark
  public Object rebuildAfterWeightChange() {
    PriorityConfig config = configs[++next & 1];
    helper.run(() -> balancer.acceptConfig(config));
    return helper.picker();
  }
}
