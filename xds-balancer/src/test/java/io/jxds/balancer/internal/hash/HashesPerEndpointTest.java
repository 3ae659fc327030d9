package io.jxds.balancer.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hash space each endpoint takes, as the toolkit plans it, is where lookups really land. */
class HashesPerEndpointTest {
  private static final List<String> KEYS = List.of("10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80");
  private static final double[] WEIGHTS = {1, 2, 5};

  @Test
  void ringArcsAreWhereRandomHashesLand() {
    assertCountsMatchLookups(HashRing.build(KEYS, WEIGHTS, 64, 1024));
  }

  @Test
  void maglevSlotsAreWhereRandomHashesLand() {
    assertCountsMatchLookups(MaglevTable.build(KEYS, WEIGHTS, 101));
  }

  private static void assertCountsMatchLookups(SlotTable table) {
    BigInteger[] counts = table.hashesPerEndpoint(KEYS.size());
    assertThat(counts[0].add(counts[1]).add(counts[2])).isEqualTo(BigInteger.ONE.shiftLeft(64));
    int[] landed = new int[KEYS.size()];
    SplittableRandom random = new SplittableRandom(7);
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      landed[table.endpointAt(table.firstSlot(random.nextLong()))]++;
    }
    for (int e = 0; e < KEYS.size(); e++) {
      double planned = counts[e].doubleValue() / Math.pow(2, 64);
      // 200 000 draws: a standard deviation below 0.12 points; 0.6 points is five of them.
      assertThat((double) landed[e] / n).as("endpoint %s", e).isCloseTo(planned,
          org.assertj.core.data.Offset.offset(0.006));
    }
  }
}
