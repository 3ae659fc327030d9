package io.jxds.balancer.internal.tree;

import io.grpc.SynchronizationContext;

/**
 * Folds the subchannel reports already queued on the SynchronizationContext into one run of a
 * balancer's state update: when many connections come up at once (a new locality, a channel
 * leaving IDLE), the picker is built once per burst, not once per subchannel. Used on the
 * SynchronizationContext only.
 */
public final class CoalescedUpdate {
  private final SynchronizationContext context;
  private final Runnable update;
  private boolean scheduled;

  /** Runs {@code update} on {@code context}, once per burst of {@link #schedule()} calls. */
  public CoalescedUpdate(SynchronizationContext context, Runnable update) {
    this.context = context;
    this.update = update;
  }

  /** Runs the update after the tasks already queued, unless a run is already pending. */
  public void schedule() {
    if (scheduled) {
      return;
    }
    scheduled = true;
    context.executeLater(() -> {
      scheduled = false;
      update.run();
    });
  }
}
