package io.jxds.balancer.internal.outlier;

import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelStateListener;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.ForwardingSubchannel;

/**
 * A subchannel as outlier detection hands it to the balancer that asked for it (gRFC A50,
 * "Subchannel Wrapper"): it passes the real subchannel's states along until its endpoint is
 * ejected, then reports TRANSIENT_FAILURE and holds the real states back; when the endpoint is
 * let back in, it reports the last real state and passes them along again. The connection is kept
 * throughout (A50, "Ejection Reporting"), so a returning endpoint serves at once.
 *
 * <p>On the SynchronizationContext; pickers read {@link #tracker} from RPC threads (final).
 */
final class OutlierSubchannel extends ForwardingSubchannel {
  private final Subchannel delegate;
  /** Null: an address set outside the assignment, not tracked (A50: ignored). */
  final EndpointTracker tracker;
  private final SynchronizationContext syncContext;
  private final Runnable onShutdown;
  private SubchannelStateListener listener;
  private ConnectivityStateInfo lastReal;
  private boolean ejected;
  private boolean shutdown;

  OutlierSubchannel(Subchannel delegate, EndpointTracker tracker, SynchronizationContext syncContext,
      Runnable onShutdown) {
    this.delegate = delegate;
    this.tracker = tracker;
    this.syncContext = syncContext;
    this.onShutdown = onShutdown;
  }

  @Override
  protected Subchannel delegate() {
    return delegate;
  }

  /** The real subchannel: what a pick hands the channel. */
  Subchannel real() {
    return delegate;
  }

  @Override
  public void start(SubchannelStateListener listener) {
    this.listener = listener;
    super.start(this::onRealState);
    if (tracker != null && tracker.ejected) {
      // A50: a subchannel created for an ejected endpoint is ejected at once; told after start returns.
      syncContext.execute(this::eject);
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
    onShutdown.run();
    super.shutdown();
  }

  void eject() {
    if (ejected || shutdown || listener == null) {
      return;
    }
    ejected = true;
    listener.onSubchannelState(ConnectivityStateInfo.forTransientFailure(Status.UNAVAILABLE.withDescription(
        "endpoint " + tracker + " ejected by outlier detection")));
  }

  void uneject() {
    if (!ejected) {
      return;
    }
    ejected = false;
    if (!shutdown && lastReal != null) {
      listener.onSubchannelState(lastReal);
    }
  }

  private void onRealState(ConnectivityStateInfo info) {
    syncContext.throwIfNotInThisSynchronizationContext();
    lastReal = info;
    if (!ejected || info.getState() == ConnectivityState.SHUTDOWN) {
      listener.onSubchannelState(info);
    }
  }

  @Override
  public String toString() {
    return "OutlierSubchannel{" + delegate + (ejected ? ", ejected" : "") + "}";
  }
}
