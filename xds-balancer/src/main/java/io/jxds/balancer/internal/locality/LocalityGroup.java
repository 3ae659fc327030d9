package io.jxds.balancer.internal.locality;

import io.jxds.balancer.internal.tree.EndpointPolicy;
import java.util.List;
import java.util.Objects;

/**
 * The config of one priority's child: its localities and how their endpoints are picked. A
 * {@link LocalityBalancer} serves round robin and least request; ring hash and maglev are served
 * by a hash balancer over the same localities (the priority layer chooses).
 *
 * @param localities in the control plane's order; a repeated locality id counts once (the first)
 * @param policy the cluster's endpoint-picking policy
 */
public record LocalityGroup(List<LocalityConfig> localities, EndpointPolicy policy) {
  public LocalityGroup {
    localities = List.copyOf(localities);
    Objects.requireNonNull(policy, "policy");
  }

  /** Round-robin localities. */
  public LocalityGroup(List<LocalityConfig> localities) {
    this(localities, EndpointPolicy.ROUND_ROBIN);
  }

  /** A round-robin group of the given localities. */
  public static LocalityGroup of(LocalityConfig... localities) {
    return new LocalityGroup(List.of(localities));
  }
}
