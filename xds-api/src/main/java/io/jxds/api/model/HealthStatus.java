package io.jxds.api.model;

/**
 * An endpoint's health as the control plane reports it: the six values of envoy's
 * {@code config.core.v3.HealthStatus}.
 *
 * <p>Only {@link #HEALTHY} and {@link #UNKNOWN} endpoints take traffic (gRFC A27); the others are
 * kept in the model so that operators can see them.
 */
public enum HealthStatus {
  UNKNOWN,
  HEALTHY,
  UNHEALTHY,
  DRAINING,
  TIMEOUT,
  DEGRADED;

  /** Whether an endpoint in this state may receive RPCs. */
  public boolean isUsable() {
    return this == HEALTHY || this == UNKNOWN;
  }
}
