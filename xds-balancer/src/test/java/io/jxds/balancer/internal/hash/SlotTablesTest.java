package io.jxds.balancer.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The ring (gRFC A42) and the Maglev table: consistency, disruption on removal, and shares by
 * weight, measured over 100 000 seeded request hashes. Bounds are stated in percentage points and
 * set well beyond what the seeded runs show, so a correct table never fails them.
 */
class SlotTablesTest {
  private static final int KEYS = 100_000;

  private static List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add("10.0." + (i >> 8) + "." + (i & 255) + ":8080");
    }
    return keys;
  }

  private static double[] equal(int n) {
    double[] w = new double[n];
    Arrays.fill(w, 1);
    return w;
  }

  /** {@code n} seeded weights in 1..100. */
  private static double[] uneven(int n, long seed) {
    RandomGenerator random = TestRandom.seeded(seed);
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 1 + random.nextInt(100);
    }
    return w;
  }

  private static SlotTable ring(List<String> keys, double[] weights) {
    return HashRing.build(keys, weights, 1024, 8 * 1024 * 1024);
  }

  private static SlotTable maglev(List<String> keys, double[] weights) {
    return MaglevTable.build(keys, weights, 65537);
  }

  /** The key each of {@link #KEYS} seeded hashes lands on. */
  private static String[] owners(SlotTable table, List<String> keys) {
    RandomGenerator random = TestRandom.seeded(42);
    String[] owners = new String[KEYS];
    for (int i = 0; i < KEYS; i++) {
      owners[i] = keys.get(table.endpointAt(table.firstSlot(random.nextLong())));
    }
    return owners;
  }

  @Test
  void sameHashAlwaysReachesSameEndpointAcrossRebuilds() {
    List<String> keys = keys(20);
    assertThat(owners(ring(keys, equal(20)), keys)).containsExactly(owners(ring(keys, equal(20)), keys));
    assertThat(owners(maglev(keys, equal(20)), keys)).containsExactly(owners(maglev(keys, equal(20)), keys));
  }

  @Test
  void ringRemovingOneOfTwentyMovesAboutOneTwentieth() {
    // The removed endpoint's keys (~1/20 = 5 %) move. gRFC A42 also resizes the ring with the
    // endpoint count (52 entries each for 20 endpoints, 54 for 19: scale = ceil(1024/N)·N), so
    // the new entries take a few keys from the others: seeded runs show 2.6-2.8 points (9 at
    // N = 5, 0 at N = 100, where 1024/N rounds the same); bound 5.
    assertDisruption(SlotTablesTest::ring, 20, 5.0, 2.5);
  }

  @Test
  void maglevRemovingOneOfTwentyMovesAboutOneTwentieth() {
    // Maglev is not perfectly consistent: the paper (and envoy's docs) say a removal also moves a
    // few keys between the remaining endpoints, as their preference lists refill the freed
    // slots. Seeded runs: 0.45 points at N = 20 (0.5 at N = 100); bound 2 points.
    assertDisruption(SlotTablesTest::maglev, 20, 2.0, 2.5);
  }

  private interface Builder {
    SlotTable build(List<String> keys, double[] weights);
  }

  private static void assertDisruption(Builder builder, int n, double extraPoints, double ownSharePoints) {
    List<String> keys = keys(n);
    String[] before = owners(builder.build(keys, equal(n)), keys);
    List<String> fewer = new ArrayList<>(keys);
    String removed = fewer.remove(7);
    String[] after = owners(builder.build(fewer, equal(n - 1)), fewer);
    int onRemoved = 0;
    int movedOthers = 0;
    for (int i = 0; i < KEYS; i++) {
      if (before[i].equals(removed)) {
        onRemoved++;
      } else if (!before[i].equals(after[i])) {
        movedOthers++;
      }
    }
    assertThat(100.0 * onRemoved / KEYS).as("share of the removed endpoint, %").isCloseTo(100.0 / n,
        within(ownSharePoints));
    assertThat(100.0 * movedOthers / KEYS).as("keys moved between remaining endpoints, %")
        .isLessThanOrEqualTo(extraPoints);
  }

  @Test
  void ringSharesFollowWeightsWithinTwoPoints() {
    assertShares(SlotTablesTest::ring, 2.0);
  }

  @Test
  void maglevSharesFollowWeightsWithinOnePoint() {
    assertShares(SlotTablesTest::maglev, 1.0);
  }

  /** Weights 1, 2, 3, 4 (10 %, 20 %, 30 %, 40 %), each within {@code points} percentage points. */
  private static void assertShares(Builder builder, double points) {
    List<String> keys = keys(4);
    String[] owners = owners(builder.build(keys, new double[] {1, 2, 3, 4}), keys);
    for (int e = 0; e < 4; e++) {
      String key = keys.get(e);
      long hits = Arrays.stream(owners).filter(key::equals).count();
      assertThat(100.0 * hits / KEYS).as("share of weight %d, %%", e + 1).isCloseTo(10.0 * (e + 1), within(points));
    }
  }

  @Test
  void ringSizeFollowsGrfcA42() {
    // Normalized weights 0.25, 0.25, 0.5; min ring 1024: scale 1024, entries 256, 256, 512.
    SlotTable ring = HashRing.build(keys(3), new double[] {1, 1, 2}, 1024, 4096);
    assertThat(ring.size()).isEqualTo(1024);
    int[] counts = new int[3];
    for (int s = 0; s < ring.size(); s++) {
      counts[ring.endpointAt(s)]++;
    }
    assertThat(counts).containsExactly(256, 256, 512);
    // The maximum caps the ring: for the lightest endpoint (1/10 000) to get one entry, A42's
    // scale is 10 000.
    double[] skewed = {1, 9999};
    assertThat(HashRing.build(keys(2), skewed, 1024, 4096).size()).isEqualTo(4096);
  }

  @Test
  void ringLookupFindsTheFirstEntryAtOrAfterTheHash() {
    for (HashRing ring : List.of(HashRing.build(keys(1), equal(1), 1024, 1 << 20),
        HashRing.build(keys(3), equal(3), 1024, 1 << 20),
        HashRing.build(keys(300), uneven(300, 8), 1024, 1 << 20))) {
      RandomGenerator random = TestRandom.seeded(ring.size());
      for (int i = 0; i < 3_000; i++) {
        long hash = i < 4 ? new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}[i] : random.nextLong();
        assertThat(ring.firstSlot(hash)).as("hash %x in a ring of %d", hash, ring.size())
            .isEqualTo(firstAtOrAfter(ring, ring.position(hash)));
      }
    }
  }

  @Test
  void ringLookupAgreesWithABinarySearchOverTheSortedRing() {
    // Rings of 1 024 entries over 1, 2 and 3 endpoints and one of 3 entries (most buckets empty),
    // of 10 000 entries (4 to 8 buckets an entry: the index alone answers most hashes) and of
    // about a million (a bucket per 2 to 4 entries: most lookups scan, some past a whole bucket).
    List<HashRing> rings = List.of(HashRing.build(keys(1), equal(1), 1024, 1 << 23),
        HashRing.build(keys(2), equal(2), 1024, 1 << 23),
        HashRing.build(keys(3), equal(3), 1024, 1 << 23),
        HashRing.build(keys(3), equal(3), 1, 3),
        HashRing.build(keys(10_000), equal(10_000), 1024, 1 << 23),
        HashRing.build(keys(1000), uneven(1000, 9), 1 << 20, 1 << 20));
    assertThat(rings.get(5).size()).isGreaterThan(1 << 19);
    for (HashRing ring : rings) {
      long indexBits = ~ring.position(-1L);
      long last = ring.positionAt(ring.size() - 1);
      for (long hash : new long[] {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, last, last + 1, last + indexBits + 1,
          ring.positionAt(0) - 1}) {
        assertLookup(ring, hash);
      }
      RandomGenerator random = TestRandom.seeded(ring.size());
      for (int i = 0; i < 100_000; i++) {
        assertLookup(ring, random.nextLong());
      }
      for (int s = 0; s < ring.size(); s++) { // at, next to and at the far end of each entry's position
        long at = ring.positionAt(s);
        assertLookup(ring, at);
        assertLookup(ring, at - 1);
        assertLookup(ring, at + indexBits);
        assertLookup(ring, at + indexBits + 1);
      }
    }
  }

  private static void assertLookup(HashRing ring, long hash) {
    int expected = binarySearch(ring, ring.position(hash));
    int actual = ring.firstSlot(hash);
    if (actual != expected) { // asserts only on a mismatch: millions of lookups
      assertThat(actual).as("hash %x in a ring of %d", hash, ring.size()).isEqualTo(expected);
    }
  }

  /** The first slot whose position is at or after {@code position} (unsigned), wrapping to 0. */
  private static int binarySearch(HashRing ring, long position) {
    int low = 0;
    int high = ring.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (Long.compareUnsigned(ring.positionAt(mid), position) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low == ring.size() ? 0 : low;
  }

  @Test
  void ringEntriesSitAtTheXxHashOfKeyUnderscoreCount() {
    HashRing ring = HashRing.build(List.of("10.0.0.1:8080"), equal(1), 12, 12);
    List<Long> expected = new ArrayList<>();
    for (int n = 0; n < 12; n++) {
      expected.add(ring.position(XxHash64.hash("10.0.0.1:8080_" + n)));
    }
    expected.sort(Long::compareUnsigned);
    List<Long> actual = new ArrayList<>();
    for (int s = 0; s < ring.size(); s++) {
      actual.add(ring.positionAt(s));
    }
    assertThat(actual).containsExactlyElementsOf(expected);
  }

  /** The reference lookup: a linear scan, wrapping to slot 0. */
  private static int firstAtOrAfter(HashRing ring, long position) {
    for (int s = 0; s < ring.size(); s++) {
      if (Long.compareUnsigned(ring.positionAt(s), position) >= 0) {
        return s;
      }
    }
    return 0;
  }

  @Test
  void maglevTableFillsEverySlot() {
    SlotTable table = maglev(keys(7), equal(7));
    assertThat(table.size()).isEqualTo(65537);
    int[] counts = new int[7];
    for (int s = 0; s < table.size(); s++) {
      counts[table.endpointAt(s)]++;
    }
    // Equal weights: each endpoint holds 65537/7 = 9362.4 slots, off by at most one per round.
    assertThat(Arrays.stream(counts).boxed().toList()).allSatisfy(c -> assertThat(c).isBetween(9362, 9363));
  }
}
