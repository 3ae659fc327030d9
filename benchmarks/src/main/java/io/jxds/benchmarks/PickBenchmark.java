package io.jxds.benchmarks;

import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one pick through jxds's whole picker chain (priority → locality → endpoint) with 10
 * localities x 100 endpoints, against grpc-java's own round_robin picker over 1 000 READY
 * subchannels. Run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PickBenchmark {
  static final PickSubchannelArgs ARGS = FakeLbHelper.ARGS;

  SubchannelPicker jxdsPicker;
  SubchannelPicker roundRobinPicker;

  @Setup
  public void setUp() {
    jxdsPicker = jxdsChain(10, 100);
    roundRobinPicker = grpcRoundRobin(1000);
  }

  /** priority → locality → endpoint, every endpoint READY, weights 1..100. */
  static SubchannelPicker jxdsChain(int localities, int endpointsPerLocality) {
    FakeLbHelper helper = FakeLbHelper.forBenchmarks(false);
    PriorityBalancer balancer = new PriorityBalancer(helper, TestRandom.seeded(1));
    helper.run(() -> balancer.acceptConfig(
        BenchConfigs.priority(localities, endpointsPerLocality, 100, TestRandom.seeded(2))));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("jxds chain not READY: " + helper.state());
    }
    return helper.picker();
  }

  /** grpc-java's round_robin from the default registry, every subchannel READY. */
  static SubchannelPicker grpcRoundRobin(int subchannels) {
    LoadBalancerProvider provider = LoadBalancerRegistry.getDefaultRegistry().getProvider("round_robin");
    FakeLbHelper helper = FakeLbHelper.forBenchmarks(false);
    LoadBalancer balancer = provider.newLoadBalancer(helper);
    List<EquivalentAddressGroup> addresses = new ArrayList<>();
    for (int i = 0; i < subchannels; i++) {
      addresses.add(new EquivalentAddressGroup(BenchConfigs.address(i)));
    }
    helper.run(() -> balancer.acceptResolvedAddresses(
        LoadBalancer.ResolvedAddresses.newBuilder().setAddresses(addresses).build()));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("round_robin not READY: " + helper.state());
    }
    return helper.picker();
  }

  @Benchmark
  public PickResult jxdsPriorityLocalityEndpoint() {
    return jxdsPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult grpcRoundRobin() {
    return roundRobinPicker.pickSubchannel(ARGS);
  }
}
