package io.jxds.toolkit.assertj;

import io.jxds.toolkit.Fraction;
import java.util.Locale;

/** How share assertions compare and print. */
final class Shares {
  /** A share given as a decimal matches an exact one within this (decimals such as 1/3 are rounded). */
  static final double DECIMAL_TOLERANCE = 1e-9;

  private Shares() {}

  static boolean matches(Fraction actual, double expected, double tolerance) {
    return Math.abs(actual.toDouble() - expected) <= tolerance;
  }

  static String show(Fraction f) {
    return f + " (" + String.format(Locale.ROOT, "%.6f", f.toDouble()) + ")";
  }
}
