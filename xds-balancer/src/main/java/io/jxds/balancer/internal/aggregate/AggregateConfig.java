package io.jxds.balancer.internal.aggregate;

import io.jxds.api.model.AggregateCluster;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import java.util.Objects;

/**
 * What an {@link AggregateBalancer} serves.
 *
 * @param cluster the aggregate's name (the root of the tree)
 * @param aggregate its underlying clusters in priority order
 * @param policy the channel's {@code xds_cluster} config: the failover timer and child retention
 *     of the layer choosing among the leaves, and what each leaf is given
 */
public record AggregateConfig(String cluster, AggregateCluster aggregate, ClusterPolicyConfig policy) {
  public AggregateConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(aggregate, "aggregate");
    Objects.requireNonNull(policy, "policy");
  }
}
