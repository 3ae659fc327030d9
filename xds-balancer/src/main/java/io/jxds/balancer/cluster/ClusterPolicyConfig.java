package io.jxds.balancer.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * The parsed {@code xds_cluster} config.
 *
 * @param cluster the CDS resource to watch
 * @param failoverTimeout how long a priority may stay not READY before the next one is started
 *     (gRFC A56's failover timer)
 * @param childRetention how long a priority that lost traffic to a higher one is kept connected
 */
public record ClusterPolicyConfig(String cluster, Duration failoverTimeout, Duration childRetention) {
  public static final Duration DEFAULT_FAILOVER_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CHILD_RETENTION = Duration.ofMinutes(15);

  public ClusterPolicyConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(failoverTimeout, "failoverTimeout");
    Objects.requireNonNull(childRetention, "childRetention");
    if (cluster.isEmpty()) {
      throw new IllegalArgumentException("cluster must not be empty");
    }
    if (failoverTimeout.isNegative() || childRetention.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
  }

  /** The config for {@code cluster} with default timers. */
  public static ClusterPolicyConfig forCluster(String cluster) {
    return new ClusterPolicyConfig(cluster, DEFAULT_FAILOVER_TIMEOUT, DEFAULT_CHILD_RETENTION);
  }
}
