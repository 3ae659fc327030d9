package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A remembered format gives the Formatter's text for every value, repeated or not, whatever shares its slot. */
class FormatCacheTest {
  @Test
  void givesTheFormattersTextForEveryValue() {
    FormatCache percent = new FormatCache("%.3f%%");
    FormatCache points = new FormatCache("%+.3f points");
    SplittableRandom random = new SplittableRandom(25);
    double[] recent = new double[64];
    for (int i = 0; i < 200_000; i++) {
      double v = switch (random.nextInt(4)) {
        case 0 -> recent[random.nextInt(recent.length)]; // a value seen before
        case 1 -> 100.0 * random.nextInt(1, 1000) / random.nextInt(1, 1000);
        case 2 -> -100.0 * random.nextInt(0, 1000) / random.nextInt(1, 1000);
        default -> Double.longBitsToDouble(random.nextLong()); // any double, NaN and infinities included
      };
      recent[i % recent.length] = v;
      assertThat(percent.format(v)).as("%s", v).isEqualTo(String.format(Locale.ROOT, "%.3f%%", v));
      assertThat(points.format(v)).as("%s", v).isEqualTo(String.format(Locale.ROOT, "%+.3f points", v));
    }
    assertThat(percent.format(-0.0)).isEqualTo("-0.000%");
    assertThat(percent.format(0.0)).isEqualTo("0.000%");
  }
}
