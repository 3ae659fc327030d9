package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class TestRandomTest {
  @Test
  void sameSeedGivesSameSequence() {
    RandomGenerator a = TestRandom.seeded(7);
    RandomGenerator b = TestRandom.seeded(7);
    for (int i = 0; i < 100; i++) {
      assertThat(a.nextInt(1_000_000)).isEqualTo(b.nextInt(1_000_000));
    }
  }

  @Test
  void fixedGivesTheSameFractionOfEveryRange() {
    RandomGenerator r = TestRandom.fixed(0.25);

    assertThat(r.nextInt(1_000_000)).isEqualTo(250_000);
    assertThat(r.nextDouble(-0.2, 0.2)).isCloseTo(-0.1, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(r.nextLong(400)).isEqualTo(100);
  }
}
