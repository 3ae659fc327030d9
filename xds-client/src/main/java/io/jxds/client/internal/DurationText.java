package io.jxds.client.internal;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Reads the duration strings of jxds configs: a non-negative decimal number followed by a unit,
 * {@code ms}, {@code s}, {@code m} or {@code h} — {@code "2s"}, {@code "1.5s"}, {@code "250ms"},
 * {@code "15m"}. The protobuf JSON form ({@code "2.000s"}) is a special case of it.
 */
public final class DurationText {
  /** A year: far beyond any timer jxds has, and far from {@link Duration}'s overflow. */
  private static final Duration MAX = Duration.ofDays(366);

  private DurationText() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the problem, when the text is not a duration
   */
  public static Duration parse(String text) {
    String unit;
    long nanosPerUnit;
    if (text.endsWith("ms")) {
      unit = "ms";
      nanosPerUnit = 1_000_000L;
    } else if (text.endsWith("s")) {
      unit = "s";
      nanosPerUnit = 1_000_000_000L;
    } else if (text.endsWith("m")) {
      unit = "m";
      nanosPerUnit = 60_000_000_000L;
    } else if (text.endsWith("h")) {
      unit = "h";
      nanosPerUnit = 3_600_000_000_000L;
    } else {
      throw new IllegalArgumentException(
          "\"" + text + "\" is not a duration: expected a number and a unit (ms, s, m or h), e.g. \"2s\"");
    }
    String number = text.substring(0, text.length() - unit.length());
    if (number.isEmpty() || !number.matches("[0-9]+(\\.[0-9]+)?")) {
      throw new IllegalArgumentException(
          "\"" + text + "\" is not a duration: expected a non-negative decimal number before \"" + unit + "\"");
    }
    BigDecimal nanos = new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit));
    if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
      throw new IllegalArgumentException("\"" + text + "\" is too long: at most " + MAX.toDays() + " days");
    }
    return Duration.ofNanos(nanos.longValue());
  }
}
