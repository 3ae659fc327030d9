package io.jxds.balancer.internal;

import io.jxds.api.XdsClient;

/**
 * An {@link XdsClient} a balancer uses until it shuts down. {@link #release()} hands a pooled
 * client back to its pool; for a client the caller handed in it does nothing, since the caller owns
 * it: jxds never closes it.
 */
public interface XdsClientLease {
  XdsClient client();

  void release();

  /** A lease on a client the caller owns. */
  static XdsClientLease borrowed(XdsClient client) {
    return new XdsClientLease() {
      @Override
      public XdsClient client() {
        return client;
      }

      @Override
      public void release() {}
    };
  }
}
