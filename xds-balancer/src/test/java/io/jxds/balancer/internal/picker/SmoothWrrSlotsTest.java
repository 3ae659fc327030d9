package io.jxds.balancer.internal.picker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link SmoothWrrSequence#slots} counts what {@link SmoothWrrSequence#build} orders. */
class SmoothWrrSlotsTest {
  @Test
  void slotsAreEachEntrysCountInTheOrder() {
    for (long[] weights : new long[][] {{1, 1, 5000}, {3, 1}, {1_000_000, 3_000_001}, {7}, {2, 4, 6}}) {
      int[] order = SmoothWrrSequence.build(weights);
      int[] counted = new int[weights.length];
      for (int i : order) {
        counted[i]++;
      }
      int[] slots = SmoothWrrSequence.slots(weights);
      // build() reduces equal shares to one slot each; the proportions are what matter.
      long total = 0;
      for (int s : slots) {
        total += s;
      }
      for (int i = 0; i < weights.length; i++) {
        assertThat((long) counted[i] * total).as("entry %s of %s", i, java.util.Arrays.toString(weights))
            .isEqualTo((long) slots[i] * order.length);
      }
    }
  }

  @Test
  void entriesPastTheMostSlotsGetNone() {
    long[] weights = new long[SmoothWrrSequence.MAX_SLOTS + 2];
    java.util.Arrays.fill(weights, 1);
    int[] slots = SmoothWrrSequence.slots(weights);
    assertThat(slots).hasSize(weights.length);
    assertThat(slots[weights.length - 1]).isZero();
    assertThat(slots[0]).isEqualTo(1);
  }
}
