package io.jxds.balancer.internal;

import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.Objects;

/**
 * The parsed {@code xds_cluster} config.
 *
 * @param cluster the CDS resource to watch
 * @param failoverTimeout how long a priority may stay not READY before the next one is started
 *     (gRFC A56's failover timer)
 * @param childRetention how long a priority that lost traffic to a higher one is kept connected
 * @param hashHeader the request header whose value is the request's hash under ring hash and
 *     maglev, lower case; empty for none
 */
public record ClusterPolicyConfig(String cluster, Duration failoverTimeout, Duration childRetention,
    String hashHeader) {
  public static final Duration DEFAULT_FAILOVER_TIMEOUT = PriorityConfig.DEFAULT_FAILOVER_TIMEOUT;
  public static final Duration DEFAULT_CHILD_RETENTION = PriorityConfig.DEFAULT_CHILD_RETENTION;

  public ClusterPolicyConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(failoverTimeout, "failoverTimeout");
    Objects.requireNonNull(childRetention, "childRetention");
    hashHeader = hashHeader.toLowerCase(java.util.Locale.ROOT);
    if (cluster.isEmpty()) {
      throw new IllegalArgumentException("cluster must not be empty");
    }
    if (failoverTimeout.isNegative() || failoverTimeout.isZero()) {
      throw new IllegalArgumentException(
          "failoverTimeout must be positive, got " + DurationFormat.format(failoverTimeout));
    }
    if (childRetention.isNegative()) {
      throw new IllegalArgumentException("childRetention must be >= 0, got " + DurationFormat.format(childRetention));
    }
  }

  /** A config without a hash header. */
  public ClusterPolicyConfig(String cluster, Duration failoverTimeout, Duration childRetention) {
    this(cluster, failoverTimeout, childRetention, "");
  }

  /** The config for {@code cluster} with default timers and no hash header. */
  public static ClusterPolicyConfig forCluster(String cluster) {
    return new ClusterPolicyConfig(cluster, DEFAULT_FAILOVER_TIMEOUT, DEFAULT_CHILD_RETENTION);
  }
}
