package io.jxds.toolkit;

import io.jxds.api.model.LocalityId;
import java.util.List;
import java.util.Objects;

/**
 * One locality of a cluster's plan.
 *
 * @param id the locality
 * @param priority its priority, as the assignment numbers it
 * @param weight its {@code load_balancing_weight}
 * @param usable whether it has a HEALTHY or UNKNOWN endpoint (one without takes no traffic)
 * @param share its share of the cluster's picked RPCs: 0 unless its priority serves
 * @param shareInPriority its share while its priority serves
 * @param endpoints its endpoints, in the assignment's order
 */
public record LocalityPlan(
    LocalityId id,
    int priority,
    long weight,
    boolean usable,
    Fraction share,
    Fraction shareInPriority,
    List<EndpointPlan> endpoints) {
  /**
   * Checks the components; the list is copied.
   *
   * @param id the locality
   * @param priority its priority
   * @param weight its weight
   * @param usable whether it can take traffic
   * @param share of the cluster's picked RPCs
   * @param shareInPriority while its priority serves
   * @param endpoints its endpoints
   */
  public LocalityPlan {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(share, "share");
    Objects.requireNonNull(shareInPriority, "shareInPriority");
    endpoints = List.copyOf(endpoints);
  }
}
