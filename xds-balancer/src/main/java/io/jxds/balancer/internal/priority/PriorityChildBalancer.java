package io.jxds.balancer.internal.priority;

import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import java.util.random.RandomGenerator;

/**
 * The balancer of one priority, chosen by the cluster's policy: a {@link LocalityBalancer}
 * (localities by weight, then round robin or least request inside each) or a {@link
 * HashBalancer} (one ring or Maglev table over all the priority's endpoints). When a CDS update
 * changes the policy between those two kinds, the new balancer is built beside the old one, which
 * keeps serving until the new one reports a state other than CONNECTING (or the old one stops
 * being READY): {@link GracefulSwitchLoadBalancer}, as the root layer swaps clusters. A change
 * within a kind (round robin to least request, ring to maglev, new settings) is applied in place
 * and keeps the connections.
 */
final class PriorityChildBalancer extends LoadBalancer {
  private final GracefulSwitchLoadBalancer delegate;
  private final LoadBalancer.Factory localities;
  private final LoadBalancer.Factory hashing;

  /**
   * @param random draws pickers' start positions, on the SynchronizationContext only
   * @param pickRandom draws on RPC threads (least request, random request hashes): thread-safe
   */
  PriorityChildBalancer(Helper helper, String name, RandomGenerator random, RandomGenerator pickRandom) {
    this.delegate = new GracefulSwitchLoadBalancer(helper);
    this.localities = new Factory(h -> new LocalityBalancer(h, name, random, pickRandom), "localities");
    this.hashing = new Factory(h -> new HashBalancer(h, name, pickRandom), "hash");
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof LocalityGroup group)) {
      return Status.UNAVAILABLE.withDescription("priority child: expected a LocalityGroup, got " + config);
    }
    Object switchConfig = GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(
        group.policy().hashesRequests() ? hashing : localities, group);
    return delegate.acceptResolvedAddresses(
        resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(switchConfig).build());
  }

  @Override
  public void handleNameResolutionError(Status error) {
    delegate.handleNameResolutionError(error);
  }

  @Override
  public void requestConnection() {
    delegate.requestConnection();
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  /** One kind of child; equal to itself only, so the switch happens only when the kind changes. */
  private static final class Factory extends LoadBalancer.Factory {
    private final java.util.function.Function<Helper, LoadBalancer> create;
    private final String kind;

    Factory(java.util.function.Function<Helper, LoadBalancer> create, String kind) {
      this.create = create;
      this.kind = kind;
    }

    @Override
    public LoadBalancer newLoadBalancer(Helper helper) {
      return create.apply(helper);
    }

    @Override
    public String toString() {
      return kind;
    }
  }
}
