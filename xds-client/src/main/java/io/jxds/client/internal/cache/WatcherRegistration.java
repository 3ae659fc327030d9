package io.jxds.client.internal.cache;

import io.jxds.api.ResourceWatcher;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watcher registered with one executor. Callbacks run on the executor one at a time and in
 * order, even when the executor is a thread pool; once {@link #cancel()} has returned no further
 * callback starts.
 *
 * <p>Callbacks are produced only by the client's sync context (one producer at a time) and run by
 * whichever executor thread drains. An idle registration hands a callback straight to the
 * executor; a busy one queues it for the running drain. The flags live in this object (no separate
 * atomic objects) because a response touches ten thousand registrations and every extra object is
 * another cache miss.
 */
public final class WatcherRegistration<T> {
  private static final Logger log = LoggerFactory.getLogger(WatcherRegistration.class);
  private static final VarHandle CANCELLED;
  private static final VarHandle SCHEDULED;
  private static final VarHandle QUEUED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CANCELLED = lookup.findVarHandle(WatcherRegistration.class, "cancelled", boolean.class);
      SCHEDULED = lookup.findVarHandle(WatcherRegistration.class, "scheduled", boolean.class);
      QUEUED = lookup.findVarHandle(WatcherRegistration.class, "queued", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ResourceWatcher<T> watcher;
  private final Executor executor;
  private final Queue<Callback<T>> queue = new ConcurrentLinkedQueue<>();
  private final Runnable drainTask = () -> drain(null);
  @SuppressWarnings("unused") // through CANCELLED
  private volatile boolean cancelled;
  /** A drain is handed to the executor or running. */
  @SuppressWarnings("unused") // through SCHEDULED
  private volatile boolean scheduled;
  /** Callbacks in {@link #queue}. */
  @SuppressWarnings("unused") // through QUEUED
  private volatile int queued;
  /**
   * The last callback handed straight to the executor (the idle fast path); {@link #cancel()}
   * releases it in case the executor never runs it. Cleared once it ran.
   */
  private volatile Callback<T> direct;

  public WatcherRegistration(ResourceWatcher<T> watcher, Executor executor) {
    this.watcher = Objects.requireNonNull(watcher, "watcher");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /**
   * Stops callbacks. Returns true the first time only. Callbacks handed out but not yet run end
   * their flow-control count now: an executor that drops tasks after the application cancelled
   * (one it shut down, say) would otherwise hold the ADS stream's next response back forever.
   */
  public boolean cancel() {
    if (!CANCELLED.compareAndSet(this, false, true)) {
      return false;
    }
    Callback<T> d = direct;
    if (d != null) {
      d.release();
    }
    releaseQueued();
    return true;
  }

  /** Drops every queued callback, ending its count (each callback ends it at most once). */
  private void releaseQueued() {
    Callback<T> c;
    while ((c = queue.poll()) != null) {
      QUEUED.getAndAdd(this, -1);
      c.release();
    }
  }

  public boolean isCancelled() {
    return cancelled;
  }

  public ResourceWatcher<T> watcher() {
    return watcher;
  }

  /**
   * Hands a callback to the watcher's executor (called from the sync context only); {@code
   * tracker} (may be null) counts it until it has run or been dropped.
   */
  void deliver(Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    if (cancelled) {
      return;
    }
    if (tracker != null) {
      tracker.begin();
    }
    Callback<T> callback = new Callback<>(this, action, tracker);
    // Nothing queued and no drain running: nothing older can be overtaken, so skip the queue.
    // (Only this method adds to the queue, and only one thread runs it at a time.)
    if (queued == 0 && SCHEDULED.compareAndSet(this, false, true)) {
      if (tracker != null) {
        direct = callback;
      }
      execute(callback);
    } else {
      QUEUED.getAndAdd(this, 1);
      queue.add(callback);
      if (SCHEDULED.compareAndSet(this, false, true)) {
        execute(drainTask);
      }
    }
    if (cancelled) {
      // cancel() ran on another thread meanwhile and may have missed this one.
      callback.release();
      releaseQueued();
    }
  }

  private void execute(Runnable task) {
    try {
      executor.execute(task);
    } catch (RuntimeException e) {
      // A rejecting executor (shut down by the application) must not stall the ADS stream.
      log.warn("watcher executor rejected a callback; dropping queued callbacks", e);
      if (task instanceof Callback<?> c) {
        c.release();
      }
      releaseQueued();
      scheduled = false;
    }
  }

  private void drain(Callback<T> first) {
    try {
      if (first != null) {
        first.invoke();
        if (direct == first) {
          direct = null; // do not keep its value reachable
        }
      }
      while (queued > 0) {
        Callback<T> c = queue.poll();
        if (c == null) {
          break; // counted but not yet linked in: the check below reschedules
        }
        QUEUED.getAndAdd(this, -1);
        c.invoke();
      }
    } finally {
      scheduled = false;
    }
    if (queued > 0 && SCHEDULED.compareAndSet(this, false, true)) {
      execute(drainTask);
    }
  }

  private static final class Callback<T> implements Runnable {
    private static final VarHandle RELEASED;

    static {
      try {
        RELEASED = MethodHandles.lookup().findVarHandle(Callback.class, "released", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final WatcherRegistration<T> owner;
    private final Consumer<ResourceWatcher<T>> action;
    private final CallbackTracker tracker;
    /** The tracker count was ended: by running, by cancel() or by a rejecting executor. */
    @SuppressWarnings("unused") // through RELEASED
    private volatile boolean released;

    Callback(WatcherRegistration<T> owner, Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
      this.owner = owner;
      this.action = action;
      this.tracker = tracker;
    }

    /** Runs as the first callback of a drain (the idle fast path). */
    @Override
    public void run() {
      owner.drain(this);
    }

    void invoke() {
      try {
        if (!owner.cancelled) {
          action.accept(owner.watcher);
        }
      } catch (RuntimeException | Error e) {
        log.warn("xDS watcher {} threw from a callback", owner.watcher, e);
      } finally {
        release();
      }
    }

    /** Ends this callback's flow-control count, once however many paths get here. */
    void release() {
      if (tracker != null && RELEASED.compareAndSet(this, false, true)) {
        tracker.end();
      }
    }
  }
}
