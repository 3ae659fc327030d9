package io.jxds.client.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Writes a duration the way people write one in a message: {@code 15 s}, {@code 250 ms}, {@code
 * 5 min}, {@code 1.5 min}, {@code 2 h} — never {@link Duration#toString()}'s {@code PT15S}. Every
 * status, log line and NACK text that names a duration goes through here. (What
 * {@link DurationText} reads is the config syntax, {@code "15s"}; this is for reading by people.)
 *
 * <p>The unit is the largest one the duration reaches; the number has at most three decimals,
 * rounded half up. A duration that is a whole number of the next smaller unit, but not a short
 * decimal of the larger one, is written in the smaller unit: 100 s is {@code 100 s}, not
 * {@code 1.667 min}.
 */
public final class DurationFormat {
  private static final long[] UNIT_NANOS = {
    3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L
  };
  private static final String[] UNIT_NAMES = {"h", "min", "s", "ms", "\u00b5s", "ns"};

  private DurationFormat() {}

  /**
   * Writes {@code duration}.
   *
   * @return for example {@code "15 s"}
   */
  public static String format(Duration duration) {
    if (duration.isNegative()) {
      return "-" + format(duration.negated());
    }
    if (duration.isZero()) {
      return "0 s";
    }
    BigDecimal nanos = new BigDecimal(duration.getSeconds()).multiply(BigDecimal.valueOf(1_000_000_000L))
        .add(BigDecimal.valueOf(duration.getNano()));
    int unit = 0;
    while (unit < UNIT_NANOS.length - 1 && nanos.compareTo(BigDecimal.valueOf(UNIT_NANOS[unit])) < 0) {
      unit++;
    }
    BigDecimal unitNanos = BigDecimal.valueOf(UNIT_NANOS[unit]);
    boolean shortDecimal = nanos.movePointRight(3).remainder(unitNanos).signum() == 0;
    if (!shortDecimal && unit < UNIT_NANOS.length - 1) {
      BigDecimal smaller = BigDecimal.valueOf(UNIT_NANOS[unit + 1]);
      if (nanos.remainder(smaller).signum() == 0) {
        return write(nanos.divide(smaller), unit + 1);
      }
    }
    return write(nanos.divide(unitNanos, 3, RoundingMode.HALF_UP), unit);
  }

  private static String write(BigDecimal number, int unit) {
    return number.stripTrailingZeros().toPlainString() + " " + UNIT_NAMES[unit];
  }
}
