package io.jxds.balancer.internal.manager;

import io.jxds.balancer.internal.ClusterPolicyConfig;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster manager's config: the clusters calls may be routed to, each with its {@code
 * xds_cluster} config. One child per entry, however many routes name the cluster.
 *
 * @param clusters each cluster's config by the cluster's name (the name a call's {@link
 *     ChosenCluster} carries); an entry's config names the same cluster; sorted, unmodifiable
 */
public record ClusterManagerConfig(Map<String, ClusterPolicyConfig> clusters) {
  public ClusterManagerConfig {
    TreeMap<String, ClusterPolicyConfig> sorted = new TreeMap<>(clusters);
    sorted.forEach((name, config) -> {
      if (!name.equals(config.cluster())) {
        throw new IllegalArgumentException("cluster " + name + " has the config of cluster " + config.cluster());
      }
    });
    clusters = Collections.unmodifiableMap(sorted);
  }

  /**
   * The config with the default {@code xds_cluster} config for each of {@code names}.
   *
   * @param names the clusters
   * @return their config
   */
  public static ClusterManagerConfig of(Iterable<String> names) {
    TreeMap<String, ClusterPolicyConfig> clusters = new TreeMap<>();
    for (String name : names) {
      clusters.put(name, ClusterPolicyConfig.forCluster(name));
    }
    return new ClusterManagerConfig(clusters);
  }
}
