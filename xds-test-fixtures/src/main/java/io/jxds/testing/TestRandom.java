package io.jxds.testing;

import java.util.Random;
import java.util.random.RandomGenerator;

/**
 * Seeded randomness for tests. jxds code that draws random numbers (backoff jitter, drops,
 * pickers) takes a {@link RandomGenerator}, so a test passes {@code TestRandom.seeded(42)} and
 * gets the same sequence on every run.
 */
public final class TestRandom {
  private TestRandom() {}

  /**
   * A thread-safe generator with a fixed seed. {@link Random} updates its state with a
   * compare-and-set, so pickers may share it across RPC threads; the sequence is exact only when
   * one thread draws.
   *
   * @param seed the seed
   * @return a new {@link Random} with that seed
   */
  public static RandomGenerator seeded(long seed) {
    return new Random(seed);
  }

  /**
   * A generator whose {@code nextInt}, {@code nextLong} and {@code nextDouble} bounds-aware
   * methods all return the same fraction of their range: {@code 0.0} gives the lowest value,
   * {@code 0.999...} the highest. For tests that need one exact draw, such as jitter at its bounds.
   *
   * @param fraction in [0, 1)
   * @return the generator
   * @throws IllegalArgumentException if {@code fraction} is out of range
   */
  public static RandomGenerator fixed(double fraction) {
    if (!(fraction >= 0.0 && fraction < 1.0)) {
      throw new IllegalArgumentException("fraction must be in [0, 1), got " + fraction);
    }
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        return (long) (fraction * Math.pow(2, 64)) + Long.MIN_VALUE;
      }

      @Override
      public double nextDouble() {
        return fraction;
      }

      @Override
      public double nextDouble(double bound) {
        return fraction * bound;
      }

      @Override
      public double nextDouble(double origin, double bound) {
        return origin + fraction * (bound - origin);
      }

      @Override
      public int nextInt(int bound) {
        return (int) (fraction * bound);
      }

      @Override
      public int nextInt(int origin, int bound) {
        return origin + (int) (fraction * ((long) bound - origin));
      }

      @Override
      public long nextLong(long bound) {
        return (long) (fraction * bound);
      }

      @Override
      public long nextLong(long origin, long bound) {
        return origin + (long) (fraction * (bound - origin));
      }
    };
  }
}
