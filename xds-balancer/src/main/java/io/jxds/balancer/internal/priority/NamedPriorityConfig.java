package io.jxds.balancer.internal.priority;

import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link PriorityBalancer} config whose children the parent names and configures itself (an
 * aggregate cluster's underlying clusters, gRFC A75), instead of priorities of localities named by
 * overlap: the same name keeps its child, and its connections, wherever it moves in the order.
 *
 * @param clusterName names the layer in logs and errors
 * @param children highest priority first; names unique
 * @param failoverTimeout gRFC A56's failover timer
 * @param childRetention how long a deactivated lower child keeps its connections
 */
public record NamedPriorityConfig(
    String clusterName, List<Child> children, Duration failoverTimeout, Duration childRetention) {
  /**
   * One child.
   *
   * @param name the child's identity
   * @param config what the child's balancer is given, as its load-balancing policy config
   */
  public record Child(String name, Object config) {
    public Child {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(config, "config");
    }
  }

  public NamedPriorityConfig {
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(failoverTimeout, "failoverTimeout");
    Objects.requireNonNull(childRetention, "childRetention");
    children = List.copyOf(children);
    if (failoverTimeout.isNegative() || failoverTimeout.isZero()) {
      throw new IllegalArgumentException(
          "failoverTimeout must be positive, got " + DurationFormat.format(failoverTimeout));
    }
    Set<String> names = new HashSet<>();
    for (Child child : children) {
      if (!names.add(child.name())) {
        throw new IllegalArgumentException("child names must be unique, got " + child.name() + " twice");
      }
    }
  }
}
