package io.jxds.client.internal.stream;

import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * gRPC's connection backoff for ADS: 1 s, then ×1.6 per failure, each delay jittered by ±20 %,
 * never above 120 s. Worked numbers with no jitter: 1, 1.6, 2.56, 4.096, 6.5536, ... 120 s.
 *
 * <p>Unlike grpc-java, which caps before jittering (so delays reach 144 s), the jittered delay
 * itself is capped at 120 s.
 */
public final class ExponentialBackoff {
  public static final long INITIAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  public static final double MULTIPLIER = 1.6;
  public static final double JITTER = 0.2;
  public static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(120);

  private final RandomGenerator random;
  private final long initialNanos;
  private long nextNanos;

  public ExponentialBackoff(RandomGenerator random) {
    this(random, INITIAL_NANOS);
  }

  /** The same sequence from another first delay. */
  ExponentialBackoff(RandomGenerator random, long initialNanos) {
    this.random = random;
    this.initialNanos = initialNanos;
    this.nextNanos = initialNanos;
  }

  /** The delay before the next attempt; advances the sequence. */
  public long nextDelayNanos() {
    long base = nextNanos;
    nextNanos = (long) Math.min(base * MULTIPLIER, MAX_NANOS);
    double factor = 1 + random.nextDouble(-JITTER, JITTER);
    return Math.min((long) (base * factor), MAX_NANOS);
  }

  /** Back to the first delay: after a stream that got a response. */
  public void reset() {
    nextNanos = initialNanos;
  }
}
