package io.jxds.toolkit.internal.cli;

import java.util.Locale;

/**
 * {@code String.format(Locale.ROOT, pattern, value)} for one pattern of one double, remembered: a
 * plan's tables print the same few shares and share changes hundreds of thousands of times, and a
 * Formatter per value was a quarter of {@code ./jxds diff}. The text is always the Formatter's own.
 * A small table by the value's bits; safe to share between threads (an entry is immutable, a
 * slot is replaced whole).
 */
final class FormatCache {
  private record Entry(long bits, String text) {}

  private final String pattern;
  private final Entry[] entries = new Entry[1 << 12];

  FormatCache(String pattern) {
    this.pattern = pattern;
  }

  String format(double value) {
    long bits = Double.doubleToRawLongBits(value);
    long mixed = bits * 0x9E3779B97F4A7C15L;
    int slot = (int) (mixed >>> 52);
    Entry e = entries[slot];
    if (e != null && e.bits() == bits) {
      return e.text();
    }
    String text = String.format(Locale.ROOT, pattern, value);
    entries[slot] = new Entry(bits, text);
    return text;
  }
}
