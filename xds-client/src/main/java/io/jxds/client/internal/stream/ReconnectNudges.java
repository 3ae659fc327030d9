package io.jxds.client.internal.stream;

import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * Shortens the first seconds of an outage: while a stream waits for the channel to reconnect,
 * gRPC's own reconnect backoff (1 s, then ×1.6) decides when the next attempt is, so a control
 * plane back after 1.1 s would be found only at about 2.6 s. From the first failed attempt this
 * asks the transport to retry at once ({@link AdsTransport#reconnectNow()}) 0.25, 0.65, 1.29 and
 * 2.31 s later (steps of 0.25 s ×1.6, ±20 %): at most {@value #PER_OUTAGE} extra attempts, in the
 * outage's first seconds, where a restarting control plane comes back. After that the channel's
 * backoff alone paces the attempts against a dead server. A stream that gets a response ends the
 * outage. Runs on the client's {@link SynchronizationContext}.
 */
final class ReconnectNudges {
  static final long INITIAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  static final int PER_OUTAGE = 4;

  private final AdsTransport transport;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final ExponentialBackoff delays;
  private int left = PER_OUTAGE;
  /** The transport said it cannot reconnect on request: never ask again. */
  private boolean unsupported;
  private ScheduledHandle timer;
  private BooleanSupplier stillWaiting = () -> false;

  ReconnectNudges(
      AdsTransport transport,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      RandomGenerator random) {
    this.transport = transport;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.delays = new ExponentialBackoff(random, INITIAL_NANOS);
  }

  /**
   * Connecting failed while a stream waits: starts this outage's nudges, unless they run already
   * or were used up. Each nudge fires only while {@code stillWaiting}.
   */
  void connectFailed(BooleanSupplier stillWaiting) {
    this.stillWaiting = stillWaiting;
    if (timer == null) {
      scheduleNext();
    }
  }

  private void scheduleNext() {
    if (unsupported || left == 0) {
      return;
    }
    left--;
    timer = syncContext.schedule(this::fire, delays.nextDelayNanos(), TimeUnit.NANOSECONDS, scheduler);
  }

  // The channel reports only its first failure (gRFC A62: pick_first stays in TRANSIENT_FAILURE
  // until READY), so the nudges follow one another on their own rather than on failure reports.
  private void fire() {
    timer = null;
    if (!stillWaiting.getAsBoolean()) {
      return;
    }
    if (!transport.reconnectNow()) {
      unsupported = true;
      return;
    }
    scheduleNext();
  }

  /** The stream no longer waits (connected, closed, or the client is closing). */
  void cancel() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  /** A stream got a response: the next outage gets its nudges again. */
  void reset() {
    cancel();
    left = PER_OUTAGE;
    delays.reset();
  }
}
