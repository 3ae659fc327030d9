package io.jxds.testing;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The one lock of a {@link FakeAdsServer}, shared by its parts (what it serves, its streams, what
 * it records, what it sends), and the condition its waits wait on. One lock, because a change of
 * resources, the responses it causes on each stream and the order they are sent in must be one
 * step: a test never sees a version whose pushes are half queued.
 */
final class Monitor {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** Runs {@code body} holding the lock. */
  void run(Runnable body) {
    lock.lock();
    try {
      body.run();
    } finally {
      lock.unlock();
    }
  }

  /** Returns what {@code body} returns, holding the lock. */
  <T extends @Nullable Object> T get(Supplier<T> body) {
    lock.lock();
    try {
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every wait to look again; called with the lock held, after a change a wait may want. */
  void changed() {
    changed.signalAll();
  }

  /**
   * Waits, holding the lock between looks, until {@code found} returns a value other than null, and
   * returns it; {@code found} is asked at once and after each {@link #changed()}.
   *
   * @param what what is awaited, for an interrupted wait's message
   * @param timeout how long to wait at most
   * @param found the value sought, or null while there is none
   * @param timedOut the failure message when {@code timeout} passes
   * @throws AssertionError when {@code timeout} passes, or the thread is interrupted
   */
  <T> T await(String what, Duration timeout, Supplier<@Nullable T> found, Supplier<String> timedOut) {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      T value = found.get();
      while (value == null) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError(timedOut.get());
        }
        changed.awaitNanos(remaining);
        value = found.get();
      }
      return value;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for " + what, e);
    } finally {
      lock.unlock();
    }
  }
}
