package io.jxds.benchmarks;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
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
 * A pick over dual-stack endpoints (gRFC A61: each endpoint also lists an IPv6 address in EDS
 * {@code additional_addresses}) against the same pick over single-address endpoints, in the same
 * run: priority → locality → endpoint (round robin, weights 1..100) and ring hash, 10 localities ×
 * 100 endpoints. An endpoint is one subchannel either way, so the picker and its cost should not
 * change; compare time and, with {@code -prof gc}, allocation per pick (none expected).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DualStackPickBenchmark {
  private static final int HASHES = 1024;

  @Param({"false", "true"})
  public boolean dualStack;

  SubchannelPicker roundRobin;
  SubchannelPicker ringHash;
  final io.grpc.LoadBalancer.PickSubchannelArgs[] hashed = new io.grpc.LoadBalancer.PickSubchannelArgs[HASHES];
  int nextHash;

  @Setup
  public void setUp() {
    roundRobin = chain(EndpointPolicy.ROUND_ROBIN);
    ringHash = chain(new EndpointPolicy(LbPolicy.RingHash.defaults(), ""));
    RandomGenerator random = TestRandom.seeded(5);
    for (int i = 0; i < HASHES; i++) {
      hashed[i] = PickBenchmark.withHash(random.nextLong());
    }
  }

  private SubchannelPicker chain(EndpointPolicy policy) {
    FakeLbHelper helper = FakeLbHelper.forBenchmarks(policy.hashesRequests());
    PriorityBalancer balancer = new PriorityBalancer(helper, TestRandom.seeded(1));
    PriorityConfig config = config(10, 100, TestRandom.seeded(2), policy);
    helper.run(() -> balancer.acceptConfig(config));
    helper.readyAll();
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("chain not READY: " + helper.state());
    }
    return helper.picker();
  }

  private PriorityConfig config(int localities, int perLocality, RandomGenerator random, EndpointPolicy policy) {
    List<LocalityConfig> group = new ArrayList<>();
    int n = 0;
    for (int l = 0; l < localities; l++) {
      List<Endpoint> endpoints = new ArrayList<>();
      for (int e = 0; e < perLocality; e++, n++) {
        long weight = 1 + random.nextLong(100);
        List<InetSocketAddress> additional = dualStack ? List.of(ipv6(n)) : List.of();
        endpoints.add(new Endpoint(BenchConfigs.address(n), HealthStatus.HEALTHY, weight, "", "", additional));
      }
      group.add(new LocalityConfig(new LocalityId("bench", "zone-" + l, ""), 1 + random.nextLong(100), endpoints));
    }
    return PriorityConfig.of("bench", List.of(new LocalityGroup(group, policy)));
  }

  private static InetSocketAddress ipv6(int n) {
    byte[] ip = new byte[16];
    ip[0] = 0x20;
    ip[1] = 0x01;
    ip[2] = 0x0d;
    ip[3] = (byte) 0xb8;
    ip[14] = (byte) (n >> 8);
    ip[15] = (byte) n;
    try {
      return new InetSocketAddress(InetAddress.getByAddress(ip), 8080);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @Benchmark
  public PickResult roundRobin() {
    return roundRobin.pickSubchannel(PickBenchmark.ARGS);
  }

  @Benchmark
  public PickResult ringHash() {
    return ringHash.pickSubchannel(hashed[nextHash++ & (HASHES - 1)]);
  }
}
