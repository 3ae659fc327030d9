package io.jxds.toolkit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Objects;

/**
 * An exact, non-negative-denominator fraction in lowest terms: shares and drop rates are exact, as
 * the balancer's own integer arithmetic makes them ({@code 3/8}, not {@code 0.375000001}).
 *
 * @param numerator the numerator
 * @param denominator the denominator, positive
 */
public record Fraction(BigInteger numerator, BigInteger denominator) implements Comparable<Fraction> {
  /** Zero. */
  public static final Fraction ZERO = new Fraction(BigInteger.ZERO, BigInteger.ONE);
  /** One. */
  public static final Fraction ONE = new Fraction(BigInteger.ONE, BigInteger.ONE);

  /**
   * Reduces to lowest terms.
   *
   * @param numerator the numerator
   * @param denominator the denominator, not zero (its sign moves to the numerator)
   * @throws ArithmeticException if the denominator is zero
   */
  public Fraction {
    Objects.requireNonNull(numerator, "numerator");
    Objects.requireNonNull(denominator, "denominator");
    if (denominator.signum() == 0) {
      throw new ArithmeticException("denominator is zero");
    }
    if (denominator.signum() < 0) {
      numerator = numerator.negate();
      denominator = denominator.negate();
    }
    if (numerator.bitLength() < 63 && denominator.bitLength() < 63) {
      // Shares are mostly small: reduce in longs (BigInteger.gcd allocates as it goes).
      long n = numerator.longValue();
      long d = denominator.longValue();
      long gcd = gcd(Math.abs(n), d);
      if (gcd > 1) {
        numerator = BigInteger.valueOf(n / gcd);
        denominator = BigInteger.valueOf(d / gcd);
      }
    } else {
      BigInteger gcd = numerator.gcd(denominator);
      if (!gcd.equals(BigInteger.ONE) && gcd.signum() != 0) {
        numerator = numerator.divide(gcd);
        denominator = denominator.divide(gcd);
      }
    }
  }

  /**
   * The fraction {@code numerator / denominator}.
   *
   * @param numerator the numerator
   * @param denominator the denominator, not zero
   * @return the reduced fraction
   */
  public static Fraction of(long numerator, long denominator) {
    return new Fraction(BigInteger.valueOf(numerator), BigInteger.valueOf(denominator));
  }

  /**
   * The product.
   *
   * @param other the other factor
   * @return {@code this × other}
   */
  public Fraction times(Fraction other) {
    if (fitsInt() && other.fitsInt()) {
      return new Fraction(BigInteger.valueOf(numerator.longValue() * other.numerator.longValue()),
          BigInteger.valueOf(denominator.longValue() * other.denominator.longValue()));
    }
    return new Fraction(numerator.multiply(other.numerator), denominator.multiply(other.denominator));
  }

  /**
   * The sum.
   *
   * @param other the other term
   * @return {@code this + other}
   */
  public Fraction plus(Fraction other) {
    if (other.numerator.signum() == 0) {
      return this;
    }
    if (numerator.signum() == 0) {
      return other;
    }
    if (fitsInt() && other.fitsInt()) {
      long d = denominator.longValue();
      long od = other.denominator.longValue();
      return new Fraction(BigInteger.valueOf(numerator.longValue() * od + other.numerator.longValue() * d),
          BigInteger.valueOf(d * od));
    }
    return new Fraction(numerator.multiply(other.denominator).add(other.numerator.multiply(denominator)),
        denominator.multiply(other.denominator));
  }

  /**
   * The difference.
   *
   * @param other what to subtract
   * @return {@code this − other}
   */
  public Fraction minus(Fraction other) {
    return plus(new Fraction(other.numerator.negate(), other.denominator));
  }

  /**
   * Whether this is zero.
   *
   * @return true for 0
   */
  public boolean isZero() {
    return numerator.signum() == 0;
  }

  /**
   * The nearest double.
   *
   * @return the value as a double
   */
  public double toDouble() {
    if (numerator.bitLength() <= 53 && denominator.bitLength() <= 53) {
      return (double) numerator.longValue() / denominator.longValue(); // both exact: one rounding
    }
    return new BigDecimal(numerator).divide(new BigDecimal(denominator), MathContext.DECIMAL64).doubleValue();
  }

  @Override
  public int compareTo(Fraction other) {
    return numerator.multiply(other.denominator).compareTo(other.numerator.multiply(denominator));
  }

  /** {@code 3/8}, or {@code 1} and {@code 0} for whole numbers. */
  @Override
  public String toString() {
    String n = decimal(numerator);
    return denominator.equals(BigInteger.ONE) ? n : n + "/" + decimal(denominator);
  }

  /** Both parts within 31 bits: products and sums of two such fractions fit in a long. */
  private boolean fitsInt() {
    return numerator.bitLength() < 32 && denominator.bitLength() < 32;
  }

  /** Long.toString where it fits: BigInteger's own divides as it goes even for small values. */
  private static String decimal(BigInteger value) {
    return value.bitLength() < 64 ? Long.toString(value.longValue()) : value.toString();
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
}
