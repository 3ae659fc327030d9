package io.jxds.balancer.internal.eds;

import io.grpc.ClientStreamTracer;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.balancer.internal.outlier.CallCounter;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requests one picker admitted to one subchannel, counted in the cluster's {@link
 * InFlightRequests} from their pick until their stream closes (circuit breaking, gRFC A32).
 *
 * <p>Why from the pick: gRPC creates a pick's stream (and its tracers) only after the pick
 * returns, so threads picking at the same moment all pass a limit that is checked at the pick but
 * counted later. The pick therefore counts its request at once and <em>holds</em> that count here
 * until the request's stream shows up (its headers go out, or it closes first); the stream's
 * tracer then takes the count over and gives it back on close. Not when the tracer is created:
 * gRPC creates some tracers for streams it never starts (below).
 *
 * <p>Some picks never show up as a stream, and gRPC says nothing about them: the channel drops a
 * pick whose subchannel lost its connection (and picks the RPC again later); and a call cancelled
 * while the channel re-picks it gets a stream, and its tracers, that is never started nor closed.
 * So {@link #sweep} gives back, one sweep later, the counts still held then (by count: held
 * before the previous sweep and not taken since), and {@link #retire} gives back what is left
 * some time after the picker was replaced. A stream whose count was given back before it showed
 * up (a stream waiting that long for the connection's concurrency limit) counts itself when it
 * does.
 *
 * <p>Touched by RPC threads (atomics, no locks); {@link #sweep} and {@link #retire} run on the
 * SynchronizationContext.
 */
final class AdmittedRequests {
  /** Below any count: once retired, nothing is held. */
  private static final long RETIRED = Long.MIN_VALUE / 2;

  private final InFlightRequests inFlight;
  /** The endpoint's outlier-detection counter (gRFC A50), bumped when a stream closes; null: none. */
  private final CallCounter calls;
  /** Counts held for streams not yet shown up; {@link #RETIRED} and below once retired. */
  private final AtomicLong held = new AtomicLong();
  /** Counts ever taken from {@link #held}, by streams or sweeps. */
  private final LongAdder taken = new LongAdder();
  /** Counts ever held as of the previous sweep; on the SynchronizationContext. */
  private long heldBeforeLastSweep;
  private final ClientStreamTracer.Factory tracerFactory = new ClientStreamTracer.Factory() {
    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new StreamCount();
    }
  };

  AdmittedRequests(InFlightRequests inFlight) {
    this(inFlight, null);
  }

  /** Requests whose streams' outcomes also go to {@code calls} (null: nowhere). */
  AdmittedRequests(InFlightRequests inFlight, CallCounter calls) {
    this.inFlight = inFlight;
    this.calls = calls;
  }

  /** Requests of a picker that cannot sweep them: each stream counts itself when it shows up. */
  static AdmittedRequests unheld(InFlightRequests inFlight, CallCounter calls) {
    AdmittedRequests requests = new AdmittedRequests(inFlight, calls);
    requests.held.set(RETIRED);
    return requests;
  }

  /** A pick: counts its request unless {@code max} are in flight; false when refused. */
  boolean admit(long max) {
    if (!inFlight.tryAdmit(max)) {
      return false;
    }
    if (held.incrementAndGet() <= 0) {
      inFlight.release(1); // retired: nobody would give it back; the stream counts itself
    }
    return true;
  }

  /** Attaches to the admitted pick: one tracer per stream. */
  ClientStreamTracer.Factory tracerFactory() {
    return tracerFactory;
  }

  /** Gives back the counts held since before the previous sweep; on the SynchronizationContext. */
  void sweep() {
    long stale = heldBeforeLastSweep - taken.sum();
    if (stale > 0) {
      inFlight.release(take(stale));
    }
    heldBeforeLastSweep = taken.sum() + Math.max(0, held.get());
  }

  /** Gives back every count held and holds no more: later streams count themselves. */
  void retire() {
    inFlight.release(Math.max(0, held.getAndSet(RETIRED)));
  }

  /** Retires these requests if they hold no count; whether they were retired. */
  boolean retireIfIdle() {
    return held.compareAndSet(0, RETIRED) || held.get() < 0;
  }

  /** Takes up to {@code n} held counts; the number taken. */
  private long take(long n) {
    while (true) {
      long now = held.get();
      if (now <= 0) {
        return 0;
      }
      long k = Math.min(now, n);
      if (held.compareAndSet(now, now - k)) {
        taken.add(k);
        return k;
      }
    }
  }

  /**
   * One stream: takes over a held count when its headers go out (or counts itself), and gives it
   * back when it closes. A stream closed before its headers went out gives back the count its pick
   * holds. Its events come from transport and application threads.
   */
  private final class StreamCount extends ClientStreamTracer {
    private static final int WAITING = 0;
    private static final int COUNTED = 1;
    private static final int CLOSED = 2;
    private static final AtomicIntegerFieldUpdater<StreamCount> STATE =
        AtomicIntegerFieldUpdater.newUpdater(StreamCount.class, "state");

    private volatile int state;

    @Override
    public void outboundHeaders() {
      if (state == WAITING && STATE.compareAndSet(this, WAITING, COUNTED) && take(1) == 0) {
        inFlight.add();
      }
    }

    @Override
    public void streamClosed(Status status) {
      int before = STATE.getAndSet(this, CLOSED);
      if (before == CLOSED) {
        return;
      }
      if (before == COUNTED || (before == WAITING && take(1) == 1)) {
        inFlight.release(1);
      }
      if (calls != null) {
        calls.record(status.isOk()); // gRFC A50: any status but OK is a failure
      }
    }
  }
}
