package io.jxds.balancer.internal.eds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Hands the EDS layer's pickers to the channel, and gives back the circuit-breaker counts that
 * their picks hold for streams that never showed up ({@link AdmittedRequests}): every {@value
 * #SWEEP_SECONDS} s it sweeps the current picker and what replaced ones still hold, and retires
 * the latter at their second sweep after the replacement. Not at once: a stream picked just before
 * the replacement is still on its way to its headers, and giving its count back early would let a
 * burst past the limit while pickers change (a channel's connections coming up one by one). Only
 * the subchannels' requests that still hold a count are kept, not the replaced pickers.
 *
 * <p>Used on the SynchronizationContext only.
 */
final class PickerHandOver {
  static final long SWEEP_SECONDS = 10;

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private ClusterRequestPicker current;
  private final List<Holding> replaced = new ArrayList<>();
  private ScheduledHandle sweeps;

  PickerHandOver(Helper helper) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
  }

  /** Gives the channel {@code state} and {@code picker}. */
  void handOver(ConnectivityState state, SubchannelPicker picker) {
    helper.updateBalancingState(state, picker);
    if (current != null && current != picker) {
      for (AdmittedRequests requests : current.replace()) {
        replaced.add(new Holding(requests));
      }
    }
    current = picker instanceof ClusterRequestPicker admitting ? admitting : null;
    if (sweeps == null && (current != null || !replaced.isEmpty())) {
      sweeps = syncContext.scheduleWithFixedDelay(
          this::sweep, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS, helper.getScheduledExecutorService());
    }
  }

  /** The balancer is closing: every count still held is given back now. */
  void shutdown() {
    if (current != null) {
      for (AdmittedRequests requests : current.replace()) {
        requests.retire();
      }
      current = null;
    }
    for (Holding h : replaced) {
      h.requests.retire();
    }
    replaced.clear();
    if (sweeps != null) {
      sweeps.cancel();
      sweeps = null;
    }
  }

  private void sweep() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (current != null) {
      current.sweep();
    }
    for (Iterator<Holding> it = replaced.iterator(); it.hasNext(); ) {
      Holding h = it.next();
      if (++h.sweeps == 2) {
        h.requests.retire();
        it.remove();
      } else {
        h.requests.sweep();
      }
    }
    if (current == null && replaced.isEmpty()) {
      sweeps.cancel();
      sweeps = null;
    }
  }

  /** A replaced picker's requests to one subchannel that held counts, and the sweeps since. */
  private static final class Holding {
    final AdmittedRequests requests;
    int sweeps;

    Holding(AdmittedRequests requests) {
      this.requests = requests;
    }
  }
}
