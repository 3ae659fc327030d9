package io.jxds.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {
  @Test
  void numberAndUnit() {
    assertThat(DurationText.parse("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(DurationText.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationText.parse("2.000s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(DurationText.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationText.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationText.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(DurationText.parse("0s")).isEqualTo(Duration.ZERO);
  }

  @Test
  void anythingElseIsRejectedWithTheText() {
    for (String text : new String[] {"-1s", "10", "1.s", "1d", "1e3s", " 2s", "+2s", "s", "367d"}) {
      assertThatThrownBy(() -> DurationText.parse(text)).as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("\"" + text + "\"");
    }
    assertThatThrownBy(() -> DurationText.parse("9000h")).hasMessageContaining("at most 366 days");
  }
}
