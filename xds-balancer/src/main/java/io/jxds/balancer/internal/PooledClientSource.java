package io.jxds.balancer.internal;

/**
 * Acquires a shared client by the bootstrap, when the caller handed none in.
 */
@FunctionalInterface
public interface PooledClientSource {
  /**
   * @throws IllegalStateException when there is no usable bootstrap; the message names the source
   *     and the field, and says how to provide one
   */
  XdsClientLease acquire();
}
