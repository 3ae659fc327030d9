package io.jxds.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded polling for tests whose parts run on real threads (a gRPC server, a channel): checks a
 * condition every few milliseconds and fails, naming what it waited for, when the time is up. Tests
 * driven by a {@link FakeClock} need no polling.
 */
public final class Poll {
  /** What {@link #until(String, BooleanSupplier)} waits at most. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final long INTERVAL_MILLIS = 5;

  private Poll() {}

  /**
   * Waits until {@code condition} holds, for at most {@link #DEFAULT_TIMEOUT}.
   *
   * @param what what the test waits for, for the failure message
   * @param condition checked every few milliseconds
   * @throws AssertionError naming {@code what} when it does not hold in time
   */
  public static void until(String what, BooleanSupplier condition) {
    until(what, DEFAULT_TIMEOUT, condition);
  }

  /**
   * Waits until {@code condition} holds, for at most {@code timeout}.
   *
   * @param what what the test waits for, for the failure message
   * @param timeout how long to wait at most
   * @param condition checked every few milliseconds
   * @throws AssertionError naming {@code what} when it does not hold in time
   */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    until(() -> what, timeout, condition);
  }

  /**
   * Waits until {@code condition} holds, for at most {@code timeout}; {@code what} is read only on
   * failure, so it may describe the state reached (e.g. the counts seen so far).
   *
   * @param what describes what the test waits for, called on failure
   * @param timeout how long to wait at most
   * @param condition checked every few milliseconds
   * @throws AssertionError naming {@code what} when it does not hold in time
   */
  public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what.get());
      }
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what.get(), e);
      }
    }
  }
}
