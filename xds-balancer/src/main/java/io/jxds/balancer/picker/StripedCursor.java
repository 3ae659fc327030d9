package io.jxds.balancer.picker;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A pick counter that RPC threads advance without sharing a cache line: each thread uses one of
 * {@value #STRIPES} counters chosen by its thread id, 128 bytes apart. One thread alone walks a
 * picker's order exactly; several threads each walk it from the same start, which keeps every
 * share exact per thread while avoiding the cache-line ping-pong of one shared counter.
 */
public final class StripedCursor {
  private static final int STRIPES = 8; // a power of two
  private static final int SPACING = 32; // ints: 128 bytes, two cache lines apart

  private final AtomicIntegerArray cells = new AtomicIntegerArray((STRIPES + 1) * SPACING);

  /** The calling thread's next position, a non-negative int (wraps after 2^31 picks). */
  @SuppressWarnings("deprecation") // Thread.getId(): threadId() exists only from Java 19
  public int next() {
    int stripe = ((int) Thread.currentThread().getId() & (STRIPES - 1)) + 1;
    return cells.getAndIncrement(stripe * SPACING) & Integer.MAX_VALUE;
  }
}
