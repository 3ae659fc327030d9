package io.jxds.balancer.internal.outlier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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

  private static final VarHandle PACKED;

  static {
    try {
      PACKED = MethodHandles.lookup().findVarHandle(CallCounter.class, "packed", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A field, not an AtomicLong: one object less to reach per call and per sweep. */
  @SuppressWarnings("unused") // through PACKED
  private volatile long packed;

  /**
   * Counts one finished call; safe on any thread, allocates nothing.
   *
   * @param ok whether it ended with status OK (anything else is a failure, as in gRFC A50)
   */
  public void record(boolean ok) {
    PACKED.getAndAdd(this, ok ? ONE_SUCCESS : 1L);
  }

  /** The counts since the last drain, zeroed in the same step; read with {@link #successes}. */
  long drain() {
    return (long) PACKED.getAndSet(this, 0L);
  }

  static long successes(long drained) {
    return drained >>> 32;
  }

  static long failures(long drained) {
    return drained & FAILURES;
  }
}
