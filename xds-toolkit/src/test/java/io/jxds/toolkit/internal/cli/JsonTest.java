package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.toolkit.Fraction;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The decimal form of a share in the JSON output: the long-division path against BigDecimal's. */
class JsonTest {
  @Test
  void smallFractionsGiveBigDecimalsDigitsAndRounding() {
    SplittableRandom random = new SplittableRandom(25);
    int fast = 0;
    for (int i = 0; i < 200_000; i++) {
      long d = 1 + random.nextLong(bound(random));
      long n = random.nextLong(d + 1) * (random.nextInt(4) == 0 ? -1 : 1);
      Fraction f = Fraction.of(n, d);
      String small = Json.smallDecimal(f);
      if (small != null) {
        fast++;
        assertThat(small).as("%s", f).isEqualTo(Json.bigDecimal(f));
      }
    }
    assertThat(fast).isGreaterThan(150_000);
  }

  @Test
  void carriesAndEdgesMatchBigDecimal() {
    long[][] cases = {{0, 1}, {1, 1}, {-1, 1}, {1, 3}, {2, 3}, {-2, 3}, {1, 7}, {1, 20}, {1, 1_000_000},
        {999_999_999_999_5L, 1_000_000_000_000_0L}, {999_999_999_999_4L, 1_000_000_000_000_0L},
        {99_999_999_999_95L, 1_000_000_000_000_000L}, {-99_999_999_999_95L, 1_000_000_000_000_000L},
        {1, (1L << 59) - 1}, {(1L << 59) - 2, (1L << 59) - 1}, {123_456_789_012_5L, 1_000_000_000_000_0L},
        {3, 8}, {5, 10_000_000_000_000L}};
    for (long[] c : cases) {
      Fraction f = Fraction.of(c[0], c[1]);
      assertThat(Json.smallDecimal(f)).as("%s", f).isEqualTo(Json.bigDecimal(f));
    }
    Fraction hashShare = new Fraction(BigInteger.valueOf(12_562_134_870_413_113L), BigInteger.ONE.shiftLeft(57));
    assertThat(Json.smallDecimal(hashShare)).isEqualTo(Json.bigDecimal(hashShare));
    assertThat(Json.smallDecimal(new Fraction(BigInteger.ONE, BigInteger.ONE.shiftLeft(64)))).isNull();
    assertThat(Json.smallDecimal(Fraction.of(3, 2))).isNull();
    assertThat(Json.decimal(Fraction.of(3, 2))).isEqualTo("1.5");
  }

  private static long bound(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> 100;
      case 1 -> 1_000_000;
      case 2 -> 1L << 40;
      default -> 1L << 58;
    };
  }
}
