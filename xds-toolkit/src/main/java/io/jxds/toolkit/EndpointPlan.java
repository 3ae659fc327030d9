package io.jxds.toolkit;

import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LocalityId;
import java.util.Objects;

/**
 * One endpoint of a cluster's plan.
 *
 * @param address {@code ip:port} ({@code [ip6]:port} for IPv6)
 * @param locality its locality
 * @param priority its priority, as the assignment numbers it
 * @param health the health the control plane reported; only HEALTHY and UNKNOWN take traffic
 * @param weight its {@code load_balancing_weight}
 * @param share its share of the cluster's picked RPCs (those not dropped): 0 unless its priority
 *     serves
 * @param shareInPriority its share while its priority serves
 */
public record EndpointPlan(
    String address,
    LocalityId locality,
    int priority,
    HealthStatus health,
    long weight,
    Fraction share,
    Fraction shareInPriority) {
  /**
   * Checks the components.
   *
   * @param address ip:port
   * @param locality its locality
   * @param priority its priority
   * @param health its health
   * @param weight its weight
   * @param share of the cluster's picked RPCs
   * @param shareInPriority while its priority serves
   */
  public EndpointPlan {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(locality, "locality");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(share, "share");
    Objects.requireNonNull(shareInPriority, "shareInPriority");
  }
}
