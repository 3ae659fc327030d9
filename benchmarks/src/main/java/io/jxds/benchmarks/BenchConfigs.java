package io.jxds.benchmarks;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/** Configs for the balancer benchmarks: one priority of L localities x E endpoints. */
final class BenchConfigs {
  private BenchConfigs() {}

  static InetSocketAddress address(int n) {
    try {
      return new InetSocketAddress(
          InetAddress.getByAddress(new byte[] {10, (byte) (n >> 16), (byte) (n >> 8), (byte) n}), 8080);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * One priority of {@code localities} x {@code endpointsPerLocality} healthy endpoints; weights
   * drawn from [1, maxWeight] (1 when maxWeight is 1).
   */
  static PriorityConfig priority(
      int localities, int endpointsPerLocality, long maxWeight, RandomGenerator random) {
    return priority(localities, endpointsPerLocality, maxWeight, random, EndpointPolicy.ROUND_ROBIN);
  }

  /** The same, with the cluster's endpoint-picking {@code policy}. */
  static PriorityConfig priority(
      int localities, int endpointsPerLocality, long maxWeight, RandomGenerator random, EndpointPolicy policy) {
    List<LocalityConfig> group = new ArrayList<>();
    int n = 0;
    for (int l = 0; l < localities; l++) {
      List<Endpoint> endpoints = new ArrayList<>();
      for (int e = 0; e < endpointsPerLocality; e++) {
        long weight = maxWeight == 1 ? 1 : 1 + random.nextLong(maxWeight);
        endpoints.add(new Endpoint(address(n++), HealthStatus.HEALTHY, weight, ""));
      }
      long localityWeight = maxWeight == 1 ? 1 : 1 + random.nextLong(Math.min(maxWeight, 100));
      group.add(new LocalityConfig(new LocalityId("bench", "zone-" + l, ""), localityWeight, endpoints));
    }
    return PriorityConfig.of("bench", List.of(new LocalityGroup(group, policy)));
  }
}
