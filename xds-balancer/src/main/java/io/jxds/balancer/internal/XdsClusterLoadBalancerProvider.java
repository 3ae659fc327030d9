package io.jxds.balancer.internal;

import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.NameResolver.ConfigOrError;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.picker.ThreadLocalRandomGenerator;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Registers the {@code xds_cluster} policy with gRPC (through
 * {@code META-INF/services/io.grpc.LoadBalancerProvider}). Config:
 * {@code {"cluster":"NAME","failoverTimeout":"10s","childRetention":"15m"}}, only {@code cluster}
 * required.
 */
public final class XdsClusterLoadBalancerProvider extends LoadBalancerProvider {
  @Override
  public boolean isAvailable() {
    return true;
  }

  @Override
  public int getPriority() {
    return 5;
  }

  @Override
  public String getPolicyName() {
    return XdsClusterPolicy.POLICY_NAME;
  }

  @Override
  public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
    return new XdsClusterLoadBalancer(
        helper, SharedPoolClientSource.INSTANCE, ThreadLocalRandomGenerator.INSTANCE, RandomGenerator.getDefault());
  }

  @Override
  public ConfigOrError parseLoadBalancingPolicyConfig(Map<String, ?> rawConfig) {
    return ClusterPolicyConfigParser.parse(rawConfig);
  }
}
