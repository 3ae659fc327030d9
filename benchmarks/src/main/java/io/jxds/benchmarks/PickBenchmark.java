package io.jxds.benchmarks;

import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.LoadBalancerProvider;
import io.grpc.Metadata;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
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
 * Cost of one pick through jxds's picker chains against grpc-java's own round_robin picker over
 * 1 000 READY subchannels (the baseline, in the same run):
 *
 * <ul>
 *   <li>round robin and least request: priority → locality → endpoint, 10 localities × 100
 *       endpoints, weights 1..100 (least request then takes the weighted path);
 *       {@code jxdsLeastRequestEqualWeights}: weights 1 (the choice-of-two path);
 *   <li>ring hash and maglev: priority → one ring or table over 10 localities × 1 000 endpoints,
 *       each pick with the next of 1 024 request hashes set through {@link
 *       XdsClusterPolicy#REQUEST_HASH}; {@code *Weighted}: weights 1..100, for which gRFC A42
 *       gives the lightest endpoint one entry (a ring of 3.6M entries, 29 MB, and a 4 MB index);
 *       {@code jxdsRingHashRandom} and {@code jxdsRingHashWeightedRandom}: no hash, a random one
 *       per pick (the 1 024 fixed hashes touch about 2 000 cache lines of that ring, which stay
 *       cached; random hashes reach all of it, as many distinct keys would).
 * </ul>
 *
 * <p>Run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PickBenchmark {
  static final PickSubchannelArgs ARGS = FakeLbHelper.ARGS;
  private static final int HASHES = 1024;

  SubchannelPicker jxdsPicker;
  SubchannelPicker roundRobinPicker;
  SubchannelPicker leastRequestPicker;
  SubchannelPicker leastRequestEqualPicker;
  SubchannelPicker ringHashPicker;
  SubchannelPicker ringHashWeightedPicker;
  SubchannelPicker maglevPicker;
  SubchannelPicker maglevWeightedPicker;
  final PickSubchannelArgs[] hashed = new PickSubchannelArgs[HASHES];
  int nextHash;

  @Setup
  public void setUp() {
    jxdsPicker = jxdsChain(10, 100);
    roundRobinPicker = grpcRoundRobin(1000);
    EndpointPolicy leastRequest = new EndpointPolicy(LbPolicy.LeastRequest.defaults(), "");
    leastRequestPicker = chain(10, 100, 100, leastRequest);
    leastRequestEqualPicker = chain(10, 100, 1, leastRequest);
    EndpointPolicy ring = new EndpointPolicy(LbPolicy.RingHash.defaults(), "");
    EndpointPolicy maglev = new EndpointPolicy(LbPolicy.Maglev.defaults(), "");
    ringHashPicker = chain(10, 1000, 1, ring);
    ringHashWeightedPicker = chain(10, 1000, 100, ring);
    maglevPicker = chain(10, 1000, 1, maglev);
    maglevWeightedPicker = chain(10, 1000, 100, maglev);
    RandomGenerator random = TestRandom.seeded(5);
    for (int i = 0; i < HASHES; i++) {
      hashed[i] = withHash(random.nextLong());
    }
  }

  /** priority → locality → endpoint, every endpoint READY, weights 1..100. */
  static SubchannelPicker jxdsChain(int localities, int endpointsPerLocality) {
    return chain(localities, endpointsPerLocality, 100, EndpointPolicy.ROUND_ROBIN);
  }

  /** The picker of one priority under {@code policy}, every endpoint READY. */
  static SubchannelPicker chain(int localities, int endpointsPerLocality, long maxWeight, EndpointPolicy policy) {
    FakeLbHelper helper = FakeLbHelper.forBenchmarks(policy.hashesRequests());
    PriorityBalancer balancer = new PriorityBalancer(helper, TestRandom.seeded(1));
    helper.run(() -> balancer.acceptConfig(
        BenchConfigs.priority(localities, endpointsPerLocality, maxWeight, TestRandom.seeded(2), policy)));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("jxds chain not READY: " + helper.state());
    }
    return helper.picker();
  }

  /** grpc-java's round_robin (grpc-util's), every subchannel READY. */
  static SubchannelPicker grpcRoundRobin(int subchannels) {
    LoadBalancerProvider provider = grpcUtilRoundRobin();
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

  /**
   * grpc-util's round_robin provider. Not the registry's: grpc-services (on the class path with
   * grpc-xds, FailbackLatency's baseline) registers a health-checking round_robin that outranks it.
   */
  private static LoadBalancerProvider grpcUtilRoundRobin() {
    for (LoadBalancerProvider provider : ServiceLoader.load(LoadBalancerProvider.class)) {
      if (provider.getPolicyName().equals("round_robin") && provider.getClass().getName().startsWith("io.grpc.util.")) {
        return provider;
      }
    }
    throw new IllegalStateException("grpc-util's round_robin provider not found");
  }

  static PickSubchannelArgs withHash(long hash) {
    return FakeLbHelper.args(CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, hash), new Metadata());
  }

  private PickSubchannelArgs nextHashed() {
    return hashed[nextHash++ & (HASHES - 1)];
  }

  @Benchmark
  public PickResult jxdsPriorityLocalityEndpoint() {
    return jxdsPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult grpcRoundRobin() {
    return roundRobinPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult jxdsLeastRequest() {
    return leastRequestPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult jxdsLeastRequestEqualWeights() {
    return leastRequestEqualPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult jxdsRingHash() {
    return ringHashPicker.pickSubchannel(nextHashed());
  }

  @Benchmark
  public PickResult jxdsRingHashWeighted() {
    return ringHashWeightedPicker.pickSubchannel(nextHashed());
  }

  @Benchmark
  public PickResult jxdsRingHashRandom() {
    return ringHashPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult jxdsRingHashWeightedRandom() {
    return ringHashWeightedPicker.pickSubchannel(ARGS);
  }

  @Benchmark
  public PickResult jxdsMaglev() {
    return maglevPicker.pickSubchannel(nextHashed());
  }

  @Benchmark
  public PickResult jxdsMaglevWeighted() {
    return maglevWeightedPicker.pickSubchannel(nextHashed());
  }
}
