package io.jxds.balancer.internal.endpoint;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.LbPolicy;
import java.util.List;
import java.util.Objects;

/**
 * The config of an {@link EndpointBalancer}: the endpoints of one locality, as the control plane
 * listed them, and the policy that picks among them. Endpoints whose health is not HEALTHY or
 * UNKNOWN are kept here and skipped by the balancer (gRFC A27).
 *
 * @param endpoints in the control plane's order; a repeated address counts once (the first)
 * @param policy {@link LbPolicy.RoundRobin} or {@link LbPolicy.LeastRequest}
 */
public record EndpointGroup(List<Endpoint> endpoints, LbPolicy policy) {
  public EndpointGroup {
    endpoints = List.copyOf(endpoints);
    Objects.requireNonNull(policy, "policy");
  }

  /** Round-robin endpoints. */
  public EndpointGroup(List<Endpoint> endpoints) {
    this(endpoints, LbPolicy.ROUND_ROBIN);
  }
}
