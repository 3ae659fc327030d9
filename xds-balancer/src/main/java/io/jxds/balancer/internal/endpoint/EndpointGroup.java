package io.jxds.balancer.internal.endpoint;

import io.jxds.api.model.Endpoint;
import java.util.List;

/**
 * The config of an {@link EndpointBalancer}: the endpoints of one locality, as the control plane
 * listed them. Endpoints whose health is not HEALTHY or UNKNOWN are kept here and skipped by the
 * balancer (gRFC A27).
 *
 * @param endpoints in the control plane's order; a repeated address counts once (the first)
 */
public record EndpointGroup(List<Endpoint> endpoints) {
  public EndpointGroup {
    endpoints = List.copyOf(endpoints);
  }
}
