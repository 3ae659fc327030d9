package io.jxds.balancer.internal.cds;

import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.jxds.api.XdsClient;
import io.jxds.balancer.internal.tree.KindSwitch;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Runs a cluster by its kind (EDS, LOGICAL_DNS, an aggregate, or one that cannot be served), and
 * hands over gracefully when the kind changes ({@link KindSwitch}).
 *
 * <p>Configs: {@link LeafClusterConfig} (EDS or LOGICAL_DNS, by its {@code logicalDns}),
 * {@link FailedCluster.Config}, and anything else goes to the aggregate kind when there is one.
 */
public final class ClusterChildSwitch extends KindSwitch {
  private final Kind eds;
  private final Kind dns;
  private final Kind failed;
  private final Kind aggregates;

  /**
   * @param aggregates makes an aggregate cluster's balancer; null where there is none (an
   *     aggregate's underlying clusters are leaves by construction)
   * @param pickRandom draws on RPC threads: must be thread-safe
   * @param treeRandom seeds pickers, on the SynchronizationContext
   */
  public ClusterChildSwitch(Helper helper, XdsClient xdsClient, RandomGenerator pickRandom, RandomGenerator treeRandom,
      Function<Helper, LoadBalancer> aggregates) {
    super(helper);
    this.eds = new Kind(h -> new LeafClusterBalancer(h, xdsClient, pickRandom, treeRandom), "EDS");
    this.dns = new Kind(h -> new LeafClusterBalancer(h, xdsClient, pickRandom, treeRandom), "LOGICAL_DNS");
    this.failed = new Kind(FailedCluster::new, "failed");
    this.aggregates = aggregates == null ? null : new Kind(aggregates, "aggregate");
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    Kind kind;
    if (config instanceof LeafClusterConfig leaf) {
      kind = leaf.cluster().logicalDns().isPresent() ? dns : eds;
    } else if (config instanceof FailedCluster.Config) {
      kind = failed;
    } else {
      kind = aggregates == null ? eds : aggregates; // the kind's balancer answers a wrong config
    }
    return switchTo(kind, resolvedAddresses);
  }
}
