package io.jxds.balancer.internal.resolver;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The number of calls in a fault (delayed, or being failed) for {@code max_active_faults} (gRFC
 * A33): one count for the whole process, as A33 asks, which every channel's calls share. Calls
 * meet here on their own threads, so it is an atomic: a call takes a place only while the count is
 * below its filter's limit, and gives it back when its fault ends.
 */
final class ActiveFaults {
  /** The process's count (gRFC A33: "the maximum number of currently active faults ... for the entire process"). */
  static final ActiveFaults PROCESS = new ActiveFaults();

  private final AtomicLong active = new AtomicLong();

  /**
   * Takes a place when fewer than {@code max} calls are in a fault.
   *
   * @param max the filter's {@code max_active_faults}; {@link Long#MAX_VALUE} for no limit
   * @return whether the call may be faulted; if so, {@link #release} once its fault ends
   */
  boolean tryAcquire(long max) {
    while (true) {
      long now = active.get();
      if (now >= max) {
        return false;
      }
      if (active.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  void release() {
    active.decrementAndGet();
  }

  /** The calls in a fault now, for tests. */
  long count() {
    return active.get();
  }
}
