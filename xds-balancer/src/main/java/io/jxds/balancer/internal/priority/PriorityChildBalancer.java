package io.jxds.balancer.internal.priority;

import io.grpc.Status;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.KindSwitch;
import io.jxds.balancer.internal.tree.WrongConfig;
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
final class PriorityChildBalancer extends KindSwitch {
  private final String name;
  private final Kind localities;
  private final Kind hashing;

  /**
   * @param random draws pickers' start positions, on the SynchronizationContext only
   * @param pickRandom draws on RPC threads (least request, random request hashes): thread-safe
   */
  PriorityChildBalancer(Helper helper, String name, RandomGenerator random, RandomGenerator pickRandom) {
    super(helper);
    this.name = name;
    this.localities = new Kind(h -> new LocalityBalancer(h, name, random, pickRandom), "localities");
    this.hashing = new Kind(h -> new HashBalancer(h, name, pickRandom), "hash");
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    checkContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof LocalityGroup group)) {
      return WrongConfig.status(name, "a LocalityGroup", config);
    }
    return switchTo(group.policy().hashesRequests() ? hashing : localities, resolvedAddresses);
  }
}
