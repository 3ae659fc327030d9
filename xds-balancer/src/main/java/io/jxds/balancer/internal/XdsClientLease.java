package io.jxds.balancer.internal;

import io.jxds.api.XdsClient;
import io.jxds.client.bootstrap.Bootstrap;
import java.util.Optional;

/**
 * An {@link XdsClient} a balancer uses until it shuts down. {@link #release()} hands a pooled
 * client back to its pool; for a client the caller handed in it does nothing, since the caller owns
 * it: jxds never closes it.
 */
public interface XdsClientLease {
  XdsClient client();

  void release();

  /**
   * The bootstrap a pooled client was created from; empty for a client the caller handed in, whose
   * bootstrap jxds does not know.
   */
  default Optional<Bootstrap> bootstrap() {
    return Optional.empty();
  }

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
