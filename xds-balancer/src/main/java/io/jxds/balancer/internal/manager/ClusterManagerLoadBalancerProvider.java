package io.jxds.balancer.internal.manager;

import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.NameResolver.ConfigOrError;
import io.jxds.balancer.internal.XdsClusterLoadBalancerProvider;
import java.util.Map;

/**
 * Registers the cluster manager, {@code jxds_cluster_manager}, with gRPC (through {@code
 * META-INF/services/io.grpc.LoadBalancerProvider}); its children are {@code xds_cluster}
 * balancers. The {@code xds:} and {@code jxds:} resolvers select it; it is jxds's own name, so
 * grpc-xds's {@code cluster_manager_experimental} on the same class path is unaffected.
 */
public final class ClusterManagerLoadBalancerProvider extends LoadBalancerProvider {
  /** The policy's name in a service config. */
  public static final String POLICY_NAME = "jxds_cluster_manager";

  private final LoadBalancerProvider children = new XdsClusterLoadBalancerProvider();

  /** Creates the provider; gRPC's registry does, through the service declaration. */
  public ClusterManagerLoadBalancerProvider() {}

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
    return POLICY_NAME;
  }

  @Override
  public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
    return new ClusterManagerBalancer(helper, children);
  }

  @Override
  public ConfigOrError parseLoadBalancingPolicyConfig(Map<String, ?> rawConfig) {
    return ClusterManagerConfigParser.parse(rawConfig);
  }
}
