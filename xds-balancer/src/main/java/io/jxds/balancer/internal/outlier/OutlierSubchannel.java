package io.jxds.balancer.internal.outlier;

import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelStateListener;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.ForwardingSubchannel;
import java.util.List;
import java.util.function.Function;

/**
 * A subchannel as outlier detection hands it to the balancer that asked for it (gRFC A50,
 * "Subchannel Wrapper"): it passes the real subchannel's states along until its endpoint is
 * ejected, then reports TRANSIENT_FAILURE and holds the real states back; when the endpoint is
 * let back in, it reports the last real state and passes them along again. The connection is kept
 * throughout (A50, "Ejection Reporting"), so a returning endpoint serves at once.
 *
 * <p>On the SynchronizationContext; pickers read {@link #tracker} from RPC threads (volatile).
 */
final class OutlierSubchannel extends ForwardingSubchannel {
  private final Subchannel delegate;
  /**
   * Null: an address set outside the assignment, not tracked (A50: ignored). Changes only when
   * the subchannel is given other addresses ({@link #updateAddresses}); read by pickers.
   */
  volatile EndpointTracker tracker;
  private final SynchronizationContext syncContext;
  /** The tracker of an address list now: the detector's lookup. */
  private final Function<List<EquivalentAddressGroup>, EndpointTracker> trackers;
  private SubchannelStateListener listener;
  private ConnectivityStateInfo lastReal;
  private boolean ejected;
  private boolean shutdown;

  OutlierSubchannel(Subchannel delegate, List<EquivalentAddressGroup> addresses, SynchronizationContext syncContext,
      Function<List<EquivalentAddressGroup>, EndpointTracker> trackers) {
    this.delegate = delegate;
    this.syncContext = syncContext;
    this.trackers = trackers;
    this.tracker = trackers.apply(addresses);
    if (tracker != null) {
      tracker.subchannels.add(this);
    }
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
    if (tracker != null) {
      tracker.subchannels.remove(this);
    }
    super.shutdown();
  }

  /**
   * gRFC A50, "Update Addresses": a subchannel given the addresses of another endpoint (a
   * LOGICAL_DNS name resolving elsewhere; gRFC A61: another set of addresses is another endpoint)
   * counts for that endpoint from now on and takes its state, ejected or not.
   */
  @Override
  public void updateAddresses(List<EquivalentAddressGroup> addresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    super.updateAddresses(addresses);
    EndpointTracker next = trackers.apply(addresses);
    if (next == tracker) {
      return;
    }
    if (tracker != null) {
      tracker.subchannels.remove(this);
    }
    tracker = next;
    if (next != null) {
      next.subchannels.add(this);
    }
    if (next != null && next.ejected) {
      eject();
    } else {
      uneject();
    }
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
