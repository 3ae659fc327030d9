package io.jxds.api.model;

/**
 * The endpoint-picking policy a Cluster asks for. jxds always weights localities (gRFC A52's
 * {@code wrr_locality}); this names what happens inside a locality.
 */
public enum LbPolicy {
  /** Weighted round robin over a locality's endpoints by their {@code load_balancing_weight}. */
  ROUND_ROBIN
}
