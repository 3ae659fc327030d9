package io.jxds.api.model;

import java.util.List;
import java.util.Objects;

/**
 * A group of endpoints in one place at one priority: envoy's {@code LocalityLbEndpoints}.
 *
 * @param id where the endpoints run
 * @param priority 0 is the highest; a cluster's priorities are contiguous from 0
 * @param weight the locality's {@code load_balancing_weight}, an unsigned 32-bit value in
 *     [1, 2^32-1] (zero-weight localities never reach the model: the decoder drops them)
 * @param endpoints the endpoints, in the control plane's order (possibly none, or none usable)
 */
public record Locality(LocalityId id, int priority, long weight, List<Endpoint> endpoints) {
  /**
   * Creates a locality, checking its components; the endpoint list is copied.
   *
   * @param id where the endpoints run
   * @param priority not negative
   * @param weight in [1, 2^32-1]
   * @param endpoints the endpoints
   * @throws IllegalArgumentException if the priority is negative or the weight out of range
   */
  public Locality {
    Objects.requireNonNull(id, "id");
    if (priority < 0) {
      throw new IllegalArgumentException("priority must be >= 0, got " + priority);
    }
    Weights.requireWeight(weight, "locality weight");
    endpoints = List.copyOf(endpoints);
  }

  /**
   * Whether at least one endpoint may take traffic.
   *
   * @return true if some endpoint's health {@linkplain HealthStatus#isUsable() is usable}
   */
  public boolean hasUsableEndpoint() {
    for (Endpoint e : endpoints) {
      if (e.health().isUsable()) {
        return true;
      }
    }
    return false;
  }
}
