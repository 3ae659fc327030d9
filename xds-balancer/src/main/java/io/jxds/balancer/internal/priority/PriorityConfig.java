package io.jxds.balancer.internal.priority;

import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The config of a {@link PriorityBalancer}: one cluster's priorities, highest first.
 *
 * @param clusterName names the children ({@code clusterName[childN]}) and every error text
 * @param priorities index 0 is the highest priority; the index only sets the order, a child's
 *     identity follows its localities
 * @param failoverTimeout how long a started priority may stay not READY before the next one is
 *     started too (gRFC A56 failover timer; default {@link #DEFAULT_FAILOVER_TIMEOUT})
 * @param childRetention how long a deactivated lower priority keeps its connections in case it
 *     is needed again (default {@link #DEFAULT_CHILD_RETENTION})
 */
public record PriorityConfig(
    String clusterName,
    List<LocalityGroup> priorities,
    Duration failoverTimeout,
    Duration childRetention) {
  /** gRFC A56's failover timer. */
  public static final Duration DEFAULT_FAILOVER_TIMEOUT = Duration.ofSeconds(10);
  /** grpc-java's deactivation delay for a priority child no longer in use. */
  public static final Duration DEFAULT_CHILD_RETENTION = Duration.ofMinutes(15);

  public PriorityConfig {
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(failoverTimeout, "failoverTimeout");
    Objects.requireNonNull(childRetention, "childRetention");
    if (clusterName.isEmpty()) {
      throw new IllegalArgumentException("clusterName must not be empty");
    }
    if (failoverTimeout.isNegative() || failoverTimeout.isZero()) {
      throw new IllegalArgumentException(
          "failoverTimeout must be positive, got " + DurationFormat.format(failoverTimeout));
    }
    if (childRetention.isNegative()) {
      throw new IllegalArgumentException("childRetention must be >= 0, got " + DurationFormat.format(childRetention));
    }
    priorities = List.copyOf(priorities);
  }

  /** A config with the default failover timeout and child retention. */
  public static PriorityConfig of(String clusterName, List<LocalityGroup> priorities) {
    return new PriorityConfig(
        clusterName, priorities, DEFAULT_FAILOVER_TIMEOUT, DEFAULT_CHILD_RETENTION);
  }

  /** This config with other priorities and the same cluster name and timers. */
  public PriorityConfig withPriorities(List<LocalityGroup> newPriorities) {
    return new PriorityConfig(clusterName, newPriorities, failoverTimeout, childRetention);
  }
}
