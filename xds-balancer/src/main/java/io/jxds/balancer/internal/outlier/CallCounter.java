package io.jxds.balancer.internal.outlier;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The calls one endpoint finished since the last sweep (gRFC A50, "Call Counter"): successes and
 * failures packed in one {@code long} (successes in the high 32 bits), so that a finished call is
 * one atomic add on the RPC thread, and a sweep takes both counts and zeroes them in one atomic
 * step: no call is lost or counted twice between intervals, which is what A50's two buckets
 * achieve. An interval would need 2^32 calls to one endpoint to overflow.
 */
public final class CallCounter {
  private static final long ONE_SUCCESS = 1L << 32;
  private static final long FAILURES = 0xFFFF_FFFFL;

  private final AtomicLong packed = new AtomicLong();

  /**
   * Counts one finished call; safe on any thread, allocates nothing.
   *
   * @param ok whether it ended with status OK (anything else is a failure, as in gRFC A50)
   */
  public void record(boolean ok) {
    packed.getAndAdd(ok ? ONE_SUCCESS : 1);
  }

  /** The counts since the last drain, zeroed in the same step; read with {@link #successes}. */
  long drain() {
    return packed.getAndSet(0);
  }

  static long successes(long drained) {
    return drained >>> 32;
  }

  static long failures(long drained) {
    return drained & FAILURES;
  }
}
