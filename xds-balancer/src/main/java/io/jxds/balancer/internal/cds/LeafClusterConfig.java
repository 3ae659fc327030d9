package io.jxds.balancer.internal.cds;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import java.util.Objects;

/**
 * What a {@link LeafClusterBalancer} serves: an EDS or LOGICAL_DNS cluster, with the channel's
 * timers and hash header.
 *
 * @param cluster the cluster, not an aggregate
 * @param policy the channel's {@code xds_cluster} config (failover timer, child retention, hash
 *     header)
 */
public record LeafClusterConfig(ClusterUpdate cluster, ClusterPolicyConfig policy) {
  public LeafClusterConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(policy, "policy");
    if (cluster.aggregate().isPresent()) {
      throw new IllegalArgumentException("cluster " + cluster.clusterName() + " is an aggregate");
    }
  }
}
