package io.jxds.balancer.internal.priority;

import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.function.Function;
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
  private final SynchronizationContext syncContext;
  private final String name;
  private final GracefulSwitchLoadBalancer delegate;
  private final LoadBalancer.Factory localities;
  private final LoadBalancer.Factory hashing;

  /**
   * @param random draws pickers' start positions, on the SynchronizationContext only
   * @param pickRandom draws on RPC threads (least request, random request hashes): thread-safe
   */
  PriorityChildBalancer(Helper helper, String name, RandomGenerator random, RandomGenerator pickRandom) {
    this.syncContext = helper.getSynchronizationContext();
    this.name = name;
    this.delegate = new GracefulSwitchLoadBalancer(helper);
    this.localities = new Factory(h -> new LocalityBalancer(h, name, random, pickRandom), "localities");
    this.hashing = new Factory(h -> new HashBalancer(h, name, pickRandom), "hash");
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof LocalityGroup group)) {
      return WrongConfig.status(name, "a LocalityGroup", config);
    }
    Object switchConfig = GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(
        group.policy().hashesRequests() ? hashing : localities, group);
    return delegate.acceptResolvedAddresses(
        resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(switchConfig).build());
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.handleNameResolutionError(error);
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.requestConnection();
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.shutdown();
  }

  /** One kind of child; equal to itself only, so the switch happens only when the kind changes. */
  private static final class Factory extends LoadBalancer.Factory {
    private final Function<Helper, LoadBalancer> create;
    private final String kind;

    Factory(Function<Helper, LoadBalancer> create, String kind) {
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
