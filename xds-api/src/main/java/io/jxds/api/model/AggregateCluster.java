package io.jxds.api.model;

import java.util.List;
import java.util.Objects;

/**
 * The underlying clusters of an aggregate cluster (gRFC A37, {@code cluster_type}
 * {@code envoy.clusters.aggregate}): the {@code clusters} of its
 * {@code envoy.extensions.clusters.aggregate.v3.ClusterConfig}, highest priority first. Each may be
 * an aggregate itself; the tree is resolved by the channel, which joins the leaves' priorities in
 * this order (gRFC A75).
 *
 * @param clusters the underlying clusters' names in priority order, not empty, none empty; a name
 *     may repeat (its first position counts)
 */
public record AggregateCluster(List<String> clusters) {
  /**
   * Checks the components.
   *
   * @param clusters the underlying clusters' names in priority order
   * @throws IllegalArgumentException if the list or one of its names is empty
   */
  public AggregateCluster {
    clusters = List.copyOf(Objects.requireNonNull(clusters, "clusters"));
    if (clusters.isEmpty()) {
      throw new IllegalArgumentException("clusters must not be empty");
    }
    for (String cluster : clusters) {
      if (cluster.isEmpty()) {
        throw new IllegalArgumentException("clusters must not hold an empty name, got " + clusters);
      }
    }
  }

  /**
   * An aggregate of these clusters.
   *
   * @param clusters the underlying clusters' names in priority order, not empty
   * @return the aggregate
   */
  public static AggregateCluster of(String... clusters) {
    return new AggregateCluster(List.of(clusters));
  }
}
