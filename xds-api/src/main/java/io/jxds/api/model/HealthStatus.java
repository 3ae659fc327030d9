package io.jxds.api.model;

/**
 * An endpoint's health as the control plane reports it: the six values of envoy's
 * {@code config.core.v3.HealthStatus}.
 *
 * <p>Only {@link #HEALTHY} and {@link #UNKNOWN} endpoints take traffic (gRFC A27); the others are
 * kept in the model so that operators can see them.
 */
public enum HealthStatus {
  /** No health reported; takes traffic. */
  UNKNOWN,
  /** Takes traffic. */
  HEALTHY,
  /** Takes no traffic. */
  UNHEALTHY,
  /** Being taken out of service; takes no traffic. */
  DRAINING,
  /** A health check timed out; takes no traffic. */
  TIMEOUT,
  /** Envoy uses it only when too few hosts are healthy; it takes no traffic here (gRFC A27). */
  DEGRADED;

  /**
   * Whether an endpoint in this state may receive RPCs.
   *
   * @return true for {@link #HEALTHY} and {@link #UNKNOWN}
   */
  public boolean isUsable() {
    return this == HEALTHY || this == UNKNOWN;
  }
}
