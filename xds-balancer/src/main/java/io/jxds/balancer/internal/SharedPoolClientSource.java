package io.jxds.balancer.internal;

import io.jxds.api.XdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.XdsClientPool;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import java.util.Optional;

/**
 * Leases clients from {@link XdsClientPool#shared()}, which reads the bootstrap on every
 * acquisition: a channel created after the bootstrap changed gets a client for it.
 */
public final class SharedPoolClientSource implements PooledClientSource {
  /** The one instance. */
  public static final SharedPoolClientSource INSTANCE = new SharedPoolClientSource();

  private SharedPoolClientSource() {}

  @Override
  public XdsClientLease acquire() {
    XdsClientPool.Lease lease;
    try {
      lease = XdsClientPool.shared().acquire();
    } catch (BootstrapException e) {
      // The other way to give the balancer a client helps only when there is no bootstrap at all;
      // a bootstrap that is set but wrong needs its own field fixed.
      String hint = e.isMissing()
          ? "; or hand a client in with XdsClusterPolicy.XDS_CLIENT_ARG (" + XdsClusterPolicy.class.getName() + ")"
          : "";
      throw new IllegalStateException(e.getMessage() + hint, e);
    }
    return new XdsClientLease() {
      @Override
      public XdsClient client() {
        return lease.client();
      }

      @Override
      public void release() {
        lease.close();
      }

      @Override
      public Optional<Bootstrap> bootstrap() {
        return Optional.of(lease.bootstrap());
      }
    };
  }
}
