package io.jxds.soak;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The outlier-detection invariant (gRFC A50): while a backend is sick (one episode at a time, an
 * {@link Op.SickBackend}), no RPC may start on it later than {@link #BOUND_NANOS} after it turned
 * sick: three intervals of its clusters' outlier detection plus {@link #TIMER_SLACK_MILLIS} for the
 * sweep timer's delay on a loaded machine. Its failures before that are excused by the operation's
 * grace window; that it gets traffic again after it heals is the share check's (the backend is
 * expected back in every cluster listing it, within the converge bound, after its ejection ends).
 * RPC threads call {@link #check}; the soak's thread begins and ends episodes.
 */
final class Ejections {
  static final long TIMER_SLACK_MILLIS = 500;
  static final long BOUND_NANOS = ClusterModel.OD_INTERVAL.multipliedBy(3).toNanos()
      + TimeUnit.MILLISECONDS.toNanos(TIMER_SLACK_MILLIS);

  private volatile int backend = -1;
  private volatile long since;
  private volatile String text = "";
  /** The latest start of an RPC the sick backend failed, this episode. */
  private final AtomicLong lastStart = new AtomicLong();
  /** Per finished episode: how long after it turned sick the last RPC that reached it started. */
  private final List<Long> lastHitMillis;

  Ejections(List<Long> lastHitMillis) {
    this.lastHitMillis = lastHitMillis;
  }

  void begin(int sick, long now) {
    since = now;
    lastStart.set(now);
    text = SoakBackends.sickText(sick);
    backend = sick;
  }

  void end() {
    if (backend >= 0) {
      lastHitMillis.add(TimeUnit.NANOSECONDS.toMillis(lastStart.get() - since));
    }
    backend = -1;
  }

  /** Null, or why the RPC breaks the invariant. */
  String check(RpcResult r) {
    int b = backend;
    if (b < 0 || r.ok() || !r.description().contains(text)) {
      return null;
    }
    long lag = r.startNanos() - since;
    lastStart.accumulateAndGet(r.startNanos(), Math::max);
    if (lag <= BOUND_NANOS) {
      return null;
    }
    return String.format("b%d still got an RPC %d ms after it turned sick (outlier detection must eject it within"
        + " 3 x %d ms + %d ms): %s", b, TimeUnit.NANOSECONDS.toMillis(lag), ClusterModel.OD_INTERVAL.toMillis(),
        TIMER_SLACK_MILLIS, r.describe());
  }
}
