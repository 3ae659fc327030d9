package io.jxds.benchmarks;

import io.grpc.ConnectivityState;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * Time to rebuild a ring hash ring or Maglev table (and the picker over it) after a weight change
 * of every endpoint of one priority: a {@link HashBalancer} over 10 localities alternates between
 * two configs with the same endpoints (no connection touched) and different weights. With weights
 * 1..{@code maxWeight}; maxWeight 1 keeps the weights equal and changes only the locality order.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(1)
public class HashTableBuildBenchmark {
  @Param({"1000", "10000"})
  public int endpoints;

  @Param({"ring_hash", "maglev"})
  public String policy;

  @Param({"1", "100"})
  public long maxWeight;

  FakeLbHelper helper;
  HashBalancer balancer;
  LocalityGroup[] configs;
  int next;

  @Setup
  public void setUp() {
    LbPolicy lbPolicy = policy.equals("maglev") ? LbPolicy.Maglev.defaults() : LbPolicy.RingHash.defaults();
    EndpointPolicy endpointPolicy = new EndpointPolicy(lbPolicy, "");
    helper = FakeLbHelper.forBenchmarks(true);
    balancer = new HashBalancer(helper, "bench", TestRandom.seeded(1));
    configs = new LocalityGroup[2];
    for (int i = 0; i < 2; i++) {
      configs[i] = BenchConfigs.priority(10, endpoints / 10, Math.max(maxWeight, 2), TestRandom.seeded(2 + i),
          endpointPolicy).priorities().get(0);
      if (maxWeight == 1) { // equal weights: the same endpoints, localities in another order
        configs[i] = equalWeights(configs[i], i == 1);
      }
    }
    helper.run(() -> balancer.acceptConfig(configs[0]));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("not READY: " + helper.state());
    }
  }

  private static LocalityGroup equalWeights(LocalityGroup group, boolean reversed) {
    List<LocalityConfig> localities = new ArrayList<>();
    for (LocalityConfig l : group.localities()) {
      List<Endpoint> endpoints = l.endpoints().stream()
          .map(e -> new Endpoint(e.address(), e.health(), 1, ""))
          .toList();
      localities.add(new LocalityConfig(l.id(), 1, endpoints));
    }
    if (reversed) {
      Collections.reverse(localities);
    }
    return new LocalityGroup(localities, group.policy());
  }

  @Benchmark
  public Object rebuildAfterWeightChange() {
    LocalityGroup config = configs[++next & 1];
    helper.run(() -> balancer.acceptConfig(config));
    return helper.picker();
  }
}
