package io.jxds.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SoakConfigTest {
  @Test
  void seedIsOneSeedAListOrARange() {
    assertThat(SoakConfig.parseSeeds("42")).containsExactly(42L);
    assertThat(SoakConfig.parseSeeds("2026, 2031")).containsExactly(2026L, 2031L);
    assertThat(SoakConfig.parseSeeds("2026-2029")).containsExactly(2026L, 2027L, 2028L, 2029L);
    assertThat(SoakConfig.parseSeeds("7,100-101,-3")).containsExactly(7L, 100L, 101L, -3L);
  }

  @Test
  void backwardRangeOrNoSeedIsRefused() {
    assertThatThrownBy(() -> SoakConfig.parseSeeds("2030-2026"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2030-2026");
    assertThatThrownBy(() -> SoakConfig.parseSeeds(" , "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no seed");
  }
}
