package io.jxds.toolkit;

import java.util.List;
import java.util.Optional;

/**
 * The traffic plan of a {@link Snapshot}: one {@link ClusterPlan} per Cluster, in the snapshot's
 * order, and the check it was built on.
 *
 * @param check every resource's verdict
 * @param clusters one plan per cluster name (the last Cluster of a name)
 */
public record TrafficPlan(CheckReport check, List<ClusterPlan> clusters) {
  /**
   * Copies the list.
   *
   * @param check the verdicts
   * @param clusters the plans
   */
  public TrafficPlan {
    clusters = List.copyOf(clusters);
  }

  /**
   * A cluster's plan.
   *
   * @param name the cluster's name
   * @return its plan, empty when the snapshot has no such Cluster
   */
  public Optional<ClusterPlan> cluster(String name) {
    return clusters.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
