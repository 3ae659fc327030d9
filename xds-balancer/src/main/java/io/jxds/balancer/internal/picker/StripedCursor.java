package io.jxds.balancer.internal.picker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.random.RandomGenerator;

/**
 * The position of a picker in its cyclic order, kept per thread: each RPC thread advances one of
 * {@value #STRIPES} counters chosen by its thread id, 128 bytes apart, with plain (opaque) reads
 * and writes and no read-modify-write instruction. A pick therefore costs a load, a compare and a
 * store, and threads never bounce a cache line between them.
 *
 * <p>Thread safety: every value a thread reads was written by some thread and lies in {@code [0,
 * length)}, so a pick is always a valid slot. Two threads whose ids share a stripe may read the
 * same value and both serve that slot (a lost increment); shares stay exact per stripe up to
 * those repeats, which hit random slots and so do not bias the long-run split. One thread alone
 * (and any pool of up to {@value #STRIPES} threads with consecutive ids) walks the order exactly.
 * This is the "per-thread cursor" of the design; an atomic counter per layer would cost two
 * locked instructions per RPC, and a shared one would make every RPC thread contend on it.
 */
public final class StripedCursor {
  private static final int STRIPES = 8; // a power of two
  private static final int SPACING = 32; // ints: 128 bytes, so stripes never share a cache line
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(int[].class);

  private final int[] cells = new int[(STRIPES + 1) * SPACING];
  private final int length;

  /**
   * A cursor over {@code [0, length)}. Each stripe starts at its own random position, so that
   * clients (and threads) built from the same config do not all start on the same entry.
   */
  public StripedCursor(int length, RandomGenerator random) {
    if (length < 1) {
      throw new IllegalArgumentException("length must be >= 1, got " + length);
    }
    this.length = length;
    for (int stripe = 1; stripe <= STRIPES; stripe++) {
      cells[stripe * SPACING] = random.nextInt(length);
    }
  }

  /** The calling thread's next position in {@code [0, length)}, wrapping at the end. */
  @SuppressWarnings("deprecation") // Thread.getId(): threadId() exists only from Java 19
  public int next() {
    int index = (((int) Thread.currentThread().getId() & (STRIPES - 1)) + 1) * SPACING;
    int position = (int) CELLS.getOpaque(cells, index);
    int following = position + 1;
    CELLS.setOpaque(cells, index, following == length ? 0 : following);
    return position;
  }
}
