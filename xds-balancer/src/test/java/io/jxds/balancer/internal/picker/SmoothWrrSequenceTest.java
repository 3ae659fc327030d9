package io.jxds.balancer.internal.picker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.jxds.testing.TestRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class SmoothWrrSequenceTest {

  @Test
  void smallWeightsAreExact() {
    int[] order = SmoothWrrSequence.build(new long[] {5, 3, 1});
    assertThat(order).hasSize(9);
    assertThat(counts(order, 3)).containsExactly(5, 3, 1);
  }

  @Test
  void weightsAreReducedByTheirGcd() {
    int[] order = SmoothWrrSequence.build(new long[] {4_000_000_000L, 2_000_000_000L});
    assertThat(order).hasSize(3);
    assertThat(counts(order, 2)).containsExactly(2, 1);
  }

  @Test
  void equalWeightsArePlainRoundRobin() {
    assertThat(SmoothWrrSequence.build(new long[] {7, 7, 7, 7})).containsExactly(0, 1, 2, 3);
  }

  @Test
  void heavyEntryIsInterleavedNotBursty() {
    // A weight-5 entry among two weight-1 entries never runs more than 3 times in a row, and
    // the pattern a a a a a b c (a burst) is impossible.
    int[] order = SmoothWrrSequence.build(new long[] {5, 1, 1});
    assertSmooth(order, new long[] {5, 1, 1});
    assertThat(longestRun(order, 0)).isLessThanOrEqualTo(3);
  }

  @Test
  void oneHeavyAndManyLightEntriesStaySmooth() {
    // Where a naive "sort by ideal position" order bursts: half the traffic on one entry, the
    // other half spread over 500 entries of weight 1.
    long[] weights = new long[501];
    weights[0] = 500;
    for (int i = 1; i < weights.length; i++) {
      weights[i] = 1;
    }
    int[] order = SmoothWrrSequence.build(weights);
    assertSmooth(order, weights);
    assertThat(longestRun(order, 0)).isLessThanOrEqualTo(2);
  }

  @Test
  void randomWeightSetsHaveSmallPrefixDiscrepancyAndSmoothWindows() {
    RandomGenerator random = TestRandom.seeded(20261121);
    for (int round = 0; round < 40; round++) {
      int n = 2 + random.nextInt(30);
      long[] weights = new long[n];
      for (int i = 0; i < n; i++) {
        weights[i] = 1 + random.nextInt(round % 2 == 0 ? 10 : 300);
      }
      int[] order = SmoothWrrSequence.build(weights);
      assertSmooth(order, slots(weights)); // exact, or quantised when the sum exceeds 4 096
    }
  }

  private static long[] slots(long[] weights) {
    int[] q = SmoothWrrSequence.quantise(weights);
    long[] slots = new long[q.length];
    for (int i = 0; i < q.length; i++) {
      slots[i] = q[i];
    }
    return slots;
  }

  @Test
  void largeWeightsAreQuantisedToTheBudgetWithinOneSlotOfTheirShare() {
    RandomGenerator random = TestRandom.seeded(7);
    for (int round = 0; round < 20; round++) {
      int n = 2 + random.nextInt(200);
      long[] weights = new long[n];
      long total = 0;
      for (int i = 0; i < n; i++) {
        weights[i] = 1 + random.nextLong(0xFFFF_FFFFL);
        total += weights[i];
      }
      int[] slots = SmoothWrrSequence.quantise(weights);
      int budget = SmoothWrrSequence.slotBudget(n);
      long sum = 0;
      for (int i = 0; i < n; i++) {
        sum += slots[i];
        double exact = (double) weights[i] / total;
        double quantised = slots[i] / (double) budget;
        // The header comment's bound: less than 1/C of the traffic, per entry.
        assertThat(Math.abs(quantised - exact)).isLessThan(1.0 / budget);
      }
      assertThat(sum).isEqualTo(budget);
      assertThat(budget).isBetween(4096, 65536);
    }
  }

  @Test
  void manyEntriesWithHugeWeightsStaySmooth() {
    RandomGenerator random = TestRandom.seeded(99);
    long[] weights = new long[300];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = 1 + random.nextLong(0xFFFF_FFFFL);
    }
    int[] order = SmoothWrrSequence.build(weights);
    assertThat(order).hasSize(SmoothWrrSequence.slotBudget(300));
    assertSmooth(order, slots(weights));
  }

  @Test
  void mediumSetsOfSkewedWeightsStaySmooth() {
    RandomGenerator random = TestRandom.seeded(31337);
    for (int round = 0; round < 8; round++) {
      int n = 50 + random.nextInt(350);
      long[] weights = new long[n];
      for (int i = 0; i < n; i++) {
        // Skewed: mostly light entries, a few heavy ones.
        weights[i] = random.nextInt(10) == 0 ? 1 + random.nextInt(10_000) : 1 + random.nextInt(5);
      }
      assertSmooth(SmoothWrrSequence.build(weights), slots(weights));
    }
  }

  @Test
  void headerCommentsWorkedNumbersHold() {
    assertThat(SmoothWrrSequence.quantise(new long[] {1_000_000, 3_000_001}))
        .containsExactly(1_024, 3_072);
    assertThat(SmoothWrrSequence.quantise(new long[] {1, 2, 0xFFFF_FFFFL}))
        .containsExactly(0, 0, 4_096);
    // WeightedLocalityPicker's worked number.
    assertThat(SmoothWrrSequence.quantise(new long[] {1, 1, 5_000})).containsExactly(1, 1, 4_094);
    assertThat(SmoothWrrSequence.slotBudget(2)).isEqualTo(4_096);
    assertThat(SmoothWrrSequence.slotBudget(100)).isEqualTo(6_400);
    assertThat(SmoothWrrSequence.slotBudget(5_000)).isEqualTo(65_536);
  }

  @Test
  void quantisedSequenceIsStillSmooth() {
    long[] weights = {1_000_003, 2_999_999, 7_777_777, 123_456};
    int[] order = SmoothWrrSequence.build(weights);
    assertThat(order).hasSize(4_096);
    assertSmooth(order, slots(weights));
  }

  @Test
  void rejectsOutOfRangeWeights() {
    assertThatThrownBy(() -> SmoothWrrSequence.build(new long[] {0}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SmoothWrrSequence.build(new long[] {1L << 32}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SmoothWrrSequence.build(new long[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Checks Tijdeman's bound on every prefix (|c_i(t) − t·s_i| < 1) and the window rule:
   * over the cyclic order, no entry appears more than ceil(share × L) + 1 times in any window of
   * L consecutive picks, for several window lengths.
   */
  static void assertSmooth(int[] order, long[] weights) {
    int n = weights.length;
    long total = 0;
    for (long w : weights) {
      total += w;
    }
    int[] expectedCounts = counts(order, n);
    int len = order.length;
    double[] share = new double[n];
    for (int i = 0; i < n; i++) {
      share[i] = (double) weights[i] / total;
      assertThat(expectedCounts[i] / (double) len).isCloseTo(share[i], org.assertj.core.data.Offset.offset(1e-9));
    }
    int[] c = new int[n];
    for (int t = 1; t <= len; t++) {
      c[order[t - 1]]++;
      for (int i = 0; i < n; i++) {
        if (Math.abs(c[i] - t * share[i]) >= 1.0) {
          fail("prefix %d: entry %d picked %d times, share %f", t, i, c[i], share[i]);
        }
      }
    }
    for (int window : new int[] {2, 3, 5, 10, 17, 64, len / 2 + 1}) {
      if (window > len) {
        continue;
      }
      int[] inWindow = new int[n];
      for (int k = 0; k < window; k++) {
        inWindow[order[k]]++;
      }
      for (int start = 0; start < len; start++) {
        for (int i = 0; i < n; i++) {
          if (inWindow[i] > (int) Math.ceil(share[i] * window) + 1) {
            fail("window %d at %d: entry %d picked %d times, share %f",
                window, start, i, inWindow[i], share[i]);
          }
        }
        inWindow[order[start]]--;
        inWindow[order[(start + window) % len]]++;
      }
    }
  }

  /** The longest run of {@code entry}, counting the wrap from the end to the start. */
  static int longestRun(int[] order, int entry) {
    int best = 0;
    int run = 0;
    for (int k = 0; k < 2 * order.length; k++) {
      run = order[k % order.length] == entry ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best;
  }

  static int[] counts(int[] order, int n) {
    int[] counts = new int[n];
    for (int i : order) {
      counts[i]++;
    }
    return counts;
  }

  @Test
  void moreEntriesThanSlotsServesTheFirstOnesInsteadOfThrowing() {
    long[] weights = new long[SmoothWrrSequence.MAX_SLOTS + 10];
    java.util.Arrays.fill(weights, 1);

    int[] order = SmoothWrrSequence.build(weights);

    assertThat(order).hasSize(SmoothWrrSequence.MAX_SLOTS);
    assertThat(java.util.Arrays.stream(order).max().getAsInt()).isEqualTo(SmoothWrrSequence.MAX_SLOTS - 1);
  }
}
