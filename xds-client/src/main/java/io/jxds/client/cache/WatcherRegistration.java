package io.jxds.client.cache;

import io.jxds.api.ResourceWatcher;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watcher registered with one executor. Callbacks are queued here and drained on the
 * executor one at a time, in order, even when the executor is a thread pool; once
 * {@link #cancel()} has returned no further callback starts.
 */
public final class WatcherRegistration<T> {
  private static final Logger log = LoggerFactory.getLogger(WatcherRegistration.class);

  private final ResourceWatcher<T> watcher;
  private final Executor executor;
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final Queue<Callback<T>> queue = new ConcurrentLinkedQueue<>();
  private final Runnable drainTask = this::drain;

  public WatcherRegistration(ResourceWatcher<T> watcher, Executor executor) {
    this.watcher = Objects.requireNonNull(watcher, "watcher");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /** Stops callbacks. Returns true the first time only. */
  public boolean cancel() {
    return cancelled.compareAndSet(false, true);
  }

  public boolean isCancelled() {
    return cancelled.get();
  }

  public ResourceWatcher<T> watcher() {
    return watcher;
  }

  /** Queues a callback; {@code tracker} (may be null) counts it until it has run or been dropped. */
  void deliver(Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    if (cancelled.get()) {
      return;
    }
    if (tracker != null) {
      tracker.begin();
    }
    queue.add(new Callback<>(action, tracker));
    schedule();
  }

  private void schedule() {
    if (!scheduled.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(drainTask);
    } catch (RuntimeException e) {
      // A rejecting executor (shut down by the application) must not stall the ADS stream.
      log.warn("watcher executor rejected a callback; dropping queued callbacks", e);
      Callback<T> c;
      while ((c = queue.poll()) != null) {
        c.release();
      }
      scheduled.set(false);
    }
  }

  private void drain() {
    try {
      Callback<T> c;
      while ((c = queue.poll()) != null) {
        try {
          if (!cancelled.get()) {
            c.action.accept(watcher);
          }
        } catch (RuntimeException | Error e) {
          log.warn("xDS watcher {} threw from a callback", watcher, e);
        } finally {
          c.release();
        }
      }
    } finally {
      scheduled.set(false);
    }
    if (!queue.isEmpty()) {
      schedule();
    }
  }

  private record Callback<T>(Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    void release() {
      if (tracker != null) {
        tracker.end();
      }
    }
  }
}
