package io.jxds.toolkit;

import java.util.List;
import java.util.Objects;

/**
 * One priority of a cluster's plan.
 *
 * @param priority its number in the assignment (0 is the highest)
 * @param role what it does while every usable endpoint is reachable
 * @param localities its localities, in the assignment's order
 */
public record PriorityPlan(int priority, Role role, List<LocalityPlan> localities) {
  /** What a priority does. */
  public enum Role {
    /** The highest priority with a usable endpoint: it takes the traffic (gRFC A56). */
    SERVING,
    /** The next priority with a usable endpoint: it takes over if the serving one fails. */
    NEXT,
    /** A lower priority with usable endpoints, after the next one. */
    STANDBY,
    /** No locality of it has a HEALTHY or UNKNOWN endpoint: it is skipped (gRFC A27). */
    NO_USABLE_ENDPOINTS
  }

  /**
   * Checks the components; the list is copied.
   *
   * @param priority its number
   * @param role what it does
   * @param localities its localities
   */
  public PriorityPlan {
    Objects.requireNonNull(role, "role");
    localities = List.copyOf(localities);
  }
}
