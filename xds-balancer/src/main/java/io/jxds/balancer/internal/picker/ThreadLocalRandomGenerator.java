package io.jxds.balancer.internal.picker;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Production randomness for pickers that draw on RPC threads: each draw uses the calling thread's
 * {@link ThreadLocalRandom}, so threads never contend. (Holding one {@code ThreadLocalRandom}
 * instance and calling it from other threads would skip their seeding.)
 */
public final class ThreadLocalRandomGenerator implements RandomGenerator {
  public static final ThreadLocalRandomGenerator INSTANCE = new ThreadLocalRandomGenerator();

  private ThreadLocalRandomGenerator() {}

  @Override
  public long nextLong() {
    return ThreadLocalRandom.current().nextLong();
  }

  @Override
  public int nextInt(int bound) {
    return ThreadLocalRandom.current().nextInt(bound);
  }
}
