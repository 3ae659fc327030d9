package io.jxds.api.decode;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.api.model.EndpointsUpdate;

/** Validates an envoy v3 {@code ClusterLoadAssignment} into an {@link EndpointsUpdate}. */
public final class EndpointsDecoder {
  private EndpointsDecoder() {}

  /** Validates {@code assignment}; every rule broken names the assignment, the field and the value. */
  public static EndpointsUpdate decode(ClusterLoadAssignment assignment) throws XdsResourceException {
    throw new XdsResourceException(assignment.getClusterName(), "endpoints decoding is not implemented yet");
  }
}
