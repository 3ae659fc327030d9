package io.jxds.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationFormatTest {
  @Test
  void writesTheNumberInTheLargestUnitItReaches() {
    assertThat(DurationFormat.format(Duration.ofSeconds(15))).isEqualTo("15 s");
    assertThat(DurationFormat.format(Duration.ofMillis(250))).isEqualTo("250 ms");
    assertThat(DurationFormat.format(Duration.ofMinutes(5))).isEqualTo("5 min");
    assertThat(DurationFormat.format(Duration.ofHours(2))).isEqualTo("2 h");
    assertThat(DurationFormat.format(Duration.ofDays(2))).isEqualTo("48 h");
    assertThat(DurationFormat.format(Duration.ofMillis(1500))).isEqualTo("1.5 s");
    assertThat(DurationFormat.format(Duration.ofSeconds(90))).isEqualTo("1.5 min");
    assertThat(DurationFormat.format(Duration.ofNanos(500_000))).isEqualTo("500 \u00b5s");
    assertThat(DurationFormat.format(Duration.ofNanos(7))).isEqualTo("7 ns");
    assertThat(DurationFormat.format(Duration.ZERO)).isEqualTo("0 s");
  }

  @Test
  void aWholeNumberOfTheSmallerUnitBeatsALongDecimalOfTheLargerOne() {
    assertThat(DurationFormat.format(Duration.ofSeconds(100))).isEqualTo("100 s");
    assertThat(DurationFormat.format(Duration.ofNanos(1_234_567))).isEqualTo("1.235 ms");
    assertThat(DurationFormat.format(Duration.ofMillis(1001))).isEqualTo("1.001 s");
  }

  @Test
  void neverJavasIsoForm() {
    assertThat(DurationFormat.format(Duration.ofSeconds(15))).doesNotContain("PT");
    assertThat(DurationFormat.format(Duration.ofSeconds(-3))).isEqualTo("-3 s");
  }
}
