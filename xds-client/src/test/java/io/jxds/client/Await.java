package io.jxds.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition for tests that talk to a real gRPC server. */
final class Await {
  private Await() {}

  static void until(String what, BooleanSupplier condition) {
    until(what, Duration.ofSeconds(10), condition);
  }

  static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
