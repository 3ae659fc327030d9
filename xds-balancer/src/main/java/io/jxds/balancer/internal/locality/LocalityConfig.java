package io.jxds.balancer.internal.locality;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import java.util.List;
import java.util.Objects;

/**
 * One locality of a priority, as the {@link LocalityBalancer} serves it.
 *
 * @param id the locality; a LocalityBalancer's children are keyed by it
 * @param weight the locality's {@code load_balancing_weight}, exact, in [1, 2^32-1]
 * @param endpoints all endpoints, usable or not; the endpoint leaf keeps HEALTHY and UNKNOWN ones
 */
public record LocalityConfig(LocalityId id, long weight, List<Endpoint> endpoints) {
  public LocalityConfig {
    Objects.requireNonNull(id, "id");
    if (weight < 1 || weight > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("locality weight must be in [1, 2^32-1], got " + weight);
    }
    endpoints = List.copyOf(endpoints);
  }

  /** The locality of an EDS update, without its priority. */
  public static LocalityConfig from(Locality locality) {
    return new LocalityConfig(locality.id(), locality.weight(), locality.endpoints());
  }
}
