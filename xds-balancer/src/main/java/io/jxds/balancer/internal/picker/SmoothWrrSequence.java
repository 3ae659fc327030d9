package io.jxds.balancer.internal.picker;

import java.util.Arrays;

/**
 * Turns exact weights into a short, smooth, cyclic pick order that a picker walks with one array
 * read per pick.
 *
 * <h2>Quantisation</h2>
 *
 * Weights are exact unsigned 32-bit values (xDS {@code load_balancing_weight}). They are first
 * divided by their greatest common divisor. The slot budget for {@code k} entries is {@code C =
 * min(65 536, max(4 096, 64·k))}: 64 slots per entry on average, never fewer than 4 Ki nor more
 * than 64 Ki (memory and build time grow with C). If the reduced total {@code W} is at most C,
 * the order holds each entry exactly {@code w_i} times and the shares are exact. Otherwise each
 * entry gets {@code q_i} of exactly C slots by the largest-remainder method: {@code
 * floor(w_i·C/W)} each, plus one for the {@code C − Σfloor} entries with the largest remainders.
 * So {@code |q_i − w_i·C/W| < 1} and, because {@code Σq = C} exactly, <b>every entry's share is
 * off by less than {@code 1/C} of the traffic: at worst 1/4 096 = 0.025 percentage points</b>
 * (0.0015 points from 1 024 entries up). Worked number: weights {@code 1_000_000, 3_000_001}
 * (k = 2, C = 4 096, W = 4 000 001 > C) give {@code q = 1 024, 3 072}: shares 25 % and 75 %
 * against the exact 24.999994 % and 75.000006 %, an error of 6·10⁻⁶ points. An entry whose exact
 * share is below {@code 1/C} may get no slot at all.
 *
 * <h2>Order</h2>
 *
 * The order meets Tijdeman's bound for the "chairman assignment problem" (1980): with {@code k}
 * entries of shares {@code s_i = q_i/Q} and {@code σ = 1/(2k−2)}, every prefix {@code t} has
 * {@code |c_i(t) − t·s_i| ≤ 1 − σ}, where {@code c_i(t)} counts the picks of i among the first t.
 * Hence any window of {@code L} consecutive picks (wrapping included, since {@code c_i(Q) = q_i})
 * holds entry i at most {@code ceil(L·s_i) + 1} times: smooth, never bursty. Example: weights
 * 5, 1, 1 give {@code a b a c a a a}-like interleavings, never {@code a a a a a b c}.
 *
 * <p>The bound is a window per pick: the c-th pick of i (c from 0) may take step t only if
 * {@code t ≥ r = ceil((c + σ)/s_i)} (else i would run ahead by more than 1 − σ) and must take one
 * by {@code D = floor((c + 1 − σ)/s_i) + 1} (else it would fall behind). Tijdeman's algorithm
 * (earliest deadline among the eligible) proves that all Q picks fit their windows at once, so
 * the classic interval-point greedy finds such a fit: take the picks by increasing {@code D} and
 * give each the earliest free step {@code ≥ r}. All arithmetic is exact in {@code long}; the
 * picks are sorted by a counting sort and free steps found with a union-find, so building costs
 * {@code O(Q)} (times the inverse Ackermann function), about 20 ns per slot.
 */
public final class SmoothWrrSequence {
  /** The most slots an order ever holds, and the most entries it takes: 64 Ki. */
  public static final int MAX_SLOTS = 1 << 16;
  /** The fewest slots weights are quantised to: 4 Ki. */
  static final int MIN_BUDGET = 1 << 12;

  private SmoothWrrSequence() {}

  /**
   * Returns a cyclic order of indices into {@code weights}: each index appears in proportion to
   * its weight (exactly, or within {@code 1/C} of its share, see the class comment).
   *
   * <p>An order cannot give more than {@link #MAX_SLOTS} entries a slot each: past that many,
   * only the first {@link #MAX_SLOTS} entries are served (the rest get no traffic). Throwing
   * instead would fail inside the channel's SynchronizationContext on a control plane's whim.
   *
   * @param weights at least one, each in [1, 2^32-1]
   */
  public static int[] build(long[] weights) {
    return order(slots(weights));
  }

  /**
   * How many slots of the order {@link #build} makes each entry gets: entry i's long-run share is
   * {@code slots[i] / Σslots}, exactly. The control-plane toolkit plans shares with this, so that
   * a plan says what the picker does, quantisation and the {@link #MAX_SLOTS} cut included.
   *
   * @param weights at least one, each in [1, 2^32-1]
   * @return one count per weight (0 for an entry past {@link #MAX_SLOTS}, or one quantised away)
   */
  public static int[] slots(long[] weights) {
    long[] served = weights.length > MAX_SLOTS ? Arrays.copyOf(weights, MAX_SLOTS) : weights;
    int[] slots = quantise(served);
    return slots.length == weights.length ? slots : Arrays.copyOf(slots, weights.length);
  }

  /** The slot budget C for {@code k} entries. */
  static int slotBudget(int k) {
    return (int) Math.min(MAX_SLOTS, Math.max(MIN_BUDGET, 64L * k));
  }

  /** Slots per entry: exact (divided by the gcd) when they fit, else largest remainder over C. */
  static int[] quantise(long[] weights) {
    int n = weights.length;
    if (n == 0 || n > MAX_SLOTS) {
      throw new IllegalArgumentException("need 1 to " + MAX_SLOTS + " weights, got " + n);
    }
    long gcd = 0;
    for (long w : weights) {
      if (w < 1 || w > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("weight must be in [1, 2^32-1], got " + w);
      }
      gcd = gcd(gcd, w);
    }
    long total = 0;
    for (long w : weights) {
      total += w / gcd; // n <= 2^16 and w < 2^32: no overflow
    }
    int[] slots = new int[n];
    long c = slotBudget(n);
    if (total <= c) {
      for (int i = 0; i < n; i++) {
        slots[i] = (int) (weights[i] / gcd);
      }
      return slots;
    }
    long[] remainders = new long[n];
    long given = 0;
    for (int i = 0; i < n; i++) {
      long scaled = (weights[i] / gcd) * c; // < 2^32 * 2^16
      slots[i] = (int) (scaled / total);
      remainders[i] = scaled % total;
      given += slots[i];
    }
    int leftover = (int) (c - given); // < n
    if (leftover > 0) {
      // Sort by remainder, largest first, ties to the lower index: pack (remainder, n-1-index)
      // as an unsigned 64-bit key (a remainder is < total <= 2^48, the index needs 16 bits) and
      // flip the sign bit so that the signed sort orders it as unsigned.
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = ((remainders[i] << 16) | (n - 1 - i)) ^ Long.MIN_VALUE;
      }
      Arrays.sort(keys);
      for (int j = 0; j < leftover; j++) {
        int i = n - 1 - (int) (keys[n - 1 - j] & 0xFFFF);
        slots[i]++;
      }
    }
    return slots;
  }

  /** Tijdeman's order over entries with {@code slots[i]} picks each (entries with 0 never appear). */
  static int[] order(int[] slots) {
    int k = 0;
    int total = 0;
    int first = -1;
    boolean equal = true;
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] > 0) {
        if (first >= 0 && slots[i] != slots[first]) {
          equal = false;
        }
        if (first < 0) {
          first = i;
        }
        k++;
        total += slots[i];
      }
    }
    if (k == 0) {
      throw new IllegalArgumentException("no entry has a slot");
    }
    if (equal) {
      // Plain round robin: equal shares need one slot each.
      int[] order = new int[k];
      int j = 0;
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] > 0) {
          order[j++] = i;
        }
      }
      return order;
    }
    return windowFit(slots, total, 2L * k - 2);
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  /**
   * Assigns every pick to a step inside its Tijdeman window (see the class comment), with
   * {@code σ = 1/m}. In integers, the c-th pick of entry i has release {@code r = ceil((m·c + 1)·Q
   * / (m·q_i))} and deadline {@code D = floor((m·c + m − 1)·Q / (m·q_i)) + 1}.
   */
  private static int[] windowFit(int[] q, int total, long m) {
    // Counting sort of the picks by deadline: how many picks are due at each step first.
    int[] dueCount = new int[total + 2];
    for (int i = 0; i < q.length; i++) {
      long denominator = m * q[i];
      for (long c = 0; c < q[i]; c++) {
        dueCount[deadline(c, total, m, denominator)]++;
      }
    }
    int[] start = new int[total + 2];
    for (int t = 1; t <= total + 1; t++) {
      start[t] = start[t - 1] + dueCount[t - 1];
    }
    int[] pickEntry = new int[total];
    int[] pickRelease = new int[total];
    for (int i = 0; i < q.length; i++) {
      long denominator = m * q[i];
      for (long c = 0; c < q[i]; c++) {
        int slot = start[deadline(c, total, m, denominator)]++;
        pickEntry[slot] = i;
        pickRelease[slot] = (int) ceilDiv((m * c + 1) * total, denominator); // >= 1
      }
    }
    // Earliest free step >= r: nextFree[t] leads to it (union-find with path halving).
    int[] nextFree = new int[total + 2];
    for (int t = 0; t < nextFree.length; t++) {
      nextFree[t] = t;
    }
    int[] order = new int[total];
    for (int j = 0; j < total; j++) {
      int step = pickRelease[j];
      while (nextFree[step] != step) {
        nextFree[step] = nextFree[nextFree[step]];
        step = nextFree[step];
      }
      if (step > total) {
        // Cannot happen: Tijdeman's schedule fits every pick in its window.
        throw new IllegalStateException("no free step for a pick released at " + pickRelease[j]);
      }
      order[step - 1] = pickEntry[j];
      nextFree[step] = step + 1;
    }
    return order;
  }

  /** floor((m·c + m − 1)·Q / (m·q_i)) + 1, the last step the c-th pick may take. */
  private static int deadline(long c, int total, long m, long denominator) {
    return (int) Math.min(total, (m * c + m - 1) * total / denominator + 1); // <= 2^33 * 2^16
  }

  private static long ceilDiv(long numerator, long denominator) {
    return (numerator + denominator - 1) / denominator;
  }
}
