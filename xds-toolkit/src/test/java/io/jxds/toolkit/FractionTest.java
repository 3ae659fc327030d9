package io.jxds.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Fraction's long fast paths give what plain BigInteger arithmetic gives. */
class FractionTest {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  @Test
  void arithmeticAndTextMatchBigIntegerArithmetic() {
    SplittableRandom random = new SplittableRandom(25);
    for (int i = 0; i < 100_000; i++) {
      BigInteger an = value(random);
      BigInteger ad = value(random).abs().add(BigInteger.ONE);
      BigInteger bn = value(random);
      BigInteger bd = value(random).abs().add(BigInteger.ONE);
      Fraction a = new Fraction(an, ad);
      Fraction b = new Fraction(bn, bd);

      assertLowest(a, an, ad);
      assertLowest(a.times(b), an.multiply(bn), ad.multiply(bd));
      assertLowest(a.plus(b), an.multiply(bd).add(bn.multiply(ad)), ad.multiply(bd));
      assertLowest(a.minus(b), an.multiply(bd).subtract(bn.multiply(ad)), ad.multiply(bd));
      BigInteger[] reduced = reduce(an, ad);
      assertThat(a.toString()).isEqualTo(reduced[1].equals(BigInteger.ONE) ? reduced[0].toString()
          : reduced[0] + "/" + reduced[1]);
    }
  }

  @Test
  void edges() {
    assertThat(Fraction.of(0, 7)).isEqualTo(Fraction.ZERO);
    assertThat(Fraction.of(3, -6)).isEqualTo(new Fraction(BigInteger.valueOf(-1), BigInteger.TWO));
    assertThat(Fraction.of(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Fraction.ONE);
    assertThat(Fraction.of(Long.MIN_VALUE, 2).toString()).isEqualTo(String.valueOf(Long.MIN_VALUE / 2));
    assertThat(new Fraction(BigInteger.ONE, TWO_64).toString()).isEqualTo("1/18446744073709551616");
    assertThat(Fraction.of(1, 3).plus(Fraction.ZERO)).isEqualTo(Fraction.of(1, 3));
    assertThat(Fraction.ZERO.plus(Fraction.of(-1, 3))).isEqualTo(Fraction.of(-1, 3));
    assertThatThrownBy(() -> Fraction.of(1, 0)).isInstanceOf(ArithmeticException.class);
  }

  private static void assertLowest(Fraction f, BigInteger n, BigInteger d) {
    BigInteger[] r = reduce(n, d);
    assertThat(f.numerator()).isEqualTo(r[0]);
    assertThat(f.denominator()).isEqualTo(r[1]);
  }

  private static BigInteger[] reduce(BigInteger n, BigInteger d) {
    BigInteger g = n.gcd(d);
    return g.signum() == 0 ? new BigInteger[] {n, d} : new BigInteger[] {n.divide(g), d.divide(g)};
  }

  /** Small, int-sized, long-sized or beyond, and sometimes negative: every path. */
  private static BigInteger value(SplittableRandom random) {
    BigInteger v = switch (random.nextInt(5)) {
      case 0 -> BigInteger.valueOf(random.nextInt(100));
      case 1 -> BigInteger.valueOf(random.nextInt(Integer.MAX_VALUE));
      case 2 -> BigInteger.valueOf(random.nextLong(Long.MAX_VALUE));
      case 3 -> BigInteger.valueOf(random.nextLong(1L << 32, 1L << 33));
      default -> new BigInteger(70, new java.util.Random(random.nextLong()));
    };
    return random.nextInt(3) == 0 ? v.negate() : v;
  }
}
