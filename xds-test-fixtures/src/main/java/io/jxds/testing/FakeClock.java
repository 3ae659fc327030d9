package io.jxds.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ScheduledExecutorService} whose time moves only when a test says so.
 *
 * <p>Nothing runs on its own: {@link #forwardTime(long, TimeUnit)} advances the ticker and runs,
 * on the calling thread and in due-time order (ties in submission order), every task that fell
 * due, including tasks those tasks schedule within the window. {@link #execute(Runnable)} and
 * {@code schedule(..., 0, ...)} are due at once and run on the next {@link #runDueTasks()} or
 * {@code forwardTime}. {@link #clock()} and {@link #nanoTime()} read the same manual time.
 *
 * <p>Thread-safe: tasks may be scheduled from any thread; they run only on the thread that
 * advances time.
 */
public final class FakeClock implements ScheduledExecutorService {
  private final Object lock = new Object();
  private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
  private final AtomicLong sequence = new AtomicLong();
  private final Instant epoch;
  private volatile long nowNanos;
  private volatile boolean shutdown;

  /** A clock whose wall time starts at 2026-01-01T00:00:00Z. */
  public FakeClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  /**
   * A clock whose wall time starts at {@code wallTimeAtStart}.
   *
   * @param wallTimeAtStart what {@link #clock()} reads before time moves
   */
  public FakeClock(Instant wallTimeAtStart) {
    this.epoch = wallTimeAtStart;
  }

  /**
   * Moves time forward and runs every task that falls due, in order.
   *
   * @param amount how far, not negative
   * @param unit the unit of {@code amount}
   * @return how many tasks ran
   * @throws IllegalArgumentException if {@code amount} is negative
   */
  public int forwardTime(long amount, TimeUnit unit) {
    if (amount < 0) {
      throw new IllegalArgumentException("time only moves forward, got " + amount);
    }
    long target = nowNanos + unit.toNanos(amount);
    int ran = 0;
    while (true) {
      Task<?> next;
      synchronized (lock) {
        next = queue.peek();
        if (next == null || next.dueNanos > target) {
          nowNanos = target;
          return ran;
        }
        queue.poll();
        // Time stands at the task's due time while it runs, as a real scheduler's would.
        nowNanos = Math.max(nowNanos, next.dueNanos);
      }
      next.run();
      ran++;
    }
  }

  /**
   * Moves time forward by {@code nanos} nanoseconds.
   *
   * @param nanos how far, not negative
   * @return how many tasks ran
   */
  public int forwardNanos(long nanos) {
    return forwardTime(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Runs every task already due without moving time.
   *
   * @return how many tasks ran
   */
  public int runDueTasks() {
    return forwardTime(0, TimeUnit.NANOSECONDS);
  }

  /**
   * Tasks scheduled and neither run nor cancelled.
   *
   * @return the number of pending tasks
   */
  public int numPendingTasks() {
    synchronized (lock) {
      int n = 0;
      for (Task<?> t : queue) {
        if (!t.isCancelled()) {
          n++;
        }
      }
      return n;
    }
  }

  /**
   * Pending tasks due at or before now plus {@code delay}.
   *
   * @param delay how far ahead to look
   * @param unit the unit of {@code delay}
   * @return the number of such tasks
   */
  public int numPendingTasksWithin(long delay, TimeUnit unit) {
    long limit = nowNanos + unit.toNanos(delay);
    synchronized (lock) {
      int n = 0;
      for (Task<?> t : queue) {
        if (!t.isCancelled() && t.dueNanos <= limit) {
          n++;
        }
      }
      return n;
    }
  }

  /**
   * The delay until the earliest pending task, or -1 when none is pending.
   *
   * @return nanoseconds until the earliest pending task is due, or -1 when none is pending
   */
  public long nanosUntilNextTask() {
    synchronized (lock) {
      long best = Long.MAX_VALUE;
      for (Task<?> t : queue) {
        if (!t.isCancelled()) {
          best = Math.min(best, t.dueNanos);
        }
      }
      return best == Long.MAX_VALUE ? -1 : best - nowNanos;
    }
  }

  /**
   * Manual monotonic time in nanoseconds, starting at 0.
   *
   * @return the nanoseconds time has moved forward since this clock was created
   */
  public long nanoTime() {
    return nowNanos;
  }

  /**
   * {@link #nanoTime()} as a ticker for code that takes one.
   *
   * @return a supplier of {@link #nanoTime()}
   */
  public LongSupplier ticker() {
    return this::nanoTime;
  }

  /**
   * A UTC {@link Clock} that reads the manual time.
   *
   * @return a clock at the start instant plus {@link #nanoTime()}
   */
  public Clock clock() {
    return new ManualClock(ZoneOffset.UTC);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return enqueue(new Task<>(() -> {
      command.run();
      return null;
    }, delay, unit, 0));
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return enqueue(new Task<>(callable, delay, unit, 0));
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return scheduleRepeating(command, initialDelay, period, unit);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    // With manual time a task takes no time, so fixed delay and fixed rate coincide.
    return scheduleRepeating(command, initialDelay, delay, unit);
  }

  private ScheduledFuture<?> scheduleRepeating(Runnable command, long initialDelay, long period, TimeUnit unit) {
    if (period <= 0) {
      throw new IllegalArgumentException("period must be > 0, got " + period);
    }
    return enqueue(new Task<>(() -> {
      command.run();
      return null;
    }, initialDelay, unit, unit.toNanos(period)));
  }

  @Override
  public void execute(Runnable command) {
    schedule(command, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public <T> Future<T> submit(Callable<T> task) {
    return schedule(task, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public Future<?> submit(Runnable task) {
    return schedule(task, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public <T> Future<T> submit(Runnable task, T result) {
    return schedule(() -> {
      task.run();
      return result;
    }, 0, TimeUnit.NANOSECONDS);
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> pending = new ArrayList<>();
    synchronized (lock) {
      for (Task<?> t : queue) {
        t.cancel(false);
        pending.add(t::run);
      }
      queue.clear();
    }
    return pending;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && numPendingTasks() == 0;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  @Override
  public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) {
    throw new UnsupportedOperationException("invokeAll would block forever on a manual clock");
  }

  @Override
  public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
    throw new UnsupportedOperationException("invokeAll would block forever on a manual clock");
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks) {
    throw new UnsupportedOperationException("invokeAny would block forever on a manual clock");
  }

  @Override
  public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit) {
    throw new UnsupportedOperationException("invokeAny would block forever on a manual clock");
  }

  private <V> Task<V> enqueue(Task<V> task) {
    if (shutdown) {
      throw new java.util.concurrent.RejectedExecutionException("FakeClock is shut down");
    }
    synchronized (lock) {
      queue.add(task);
    }
    return task;
  }

  private final class Task<V extends @Nullable Object> implements ScheduledFuture<V>, Comparable<Delayed> {
    private final Callable<V> body;
    private final long periodNanos;
    private final long seq = sequence.getAndIncrement();
    private volatile long dueNanos;
    private volatile boolean cancelled;
    private volatile boolean done;
    private volatile @Nullable V result; // set once done, unless it failed
    private volatile @Nullable Throwable failure;

    Task(Callable<V> body, long delay, TimeUnit unit, long periodNanos) {
      this.body = body;
      this.periodNanos = periodNanos;
      this.dueNanos = nowNanos + Math.max(0, unit.toNanos(delay));
    }

    void run() {
      if (cancelled) {
        return;
      }
      try {
        V value = body.call();
        if (periodNanos > 0) {
          dueNanos += periodNanos;
          synchronized (lock) {
            queue.add(this);
          }
          return;
        }
        result = value;
      } catch (Throwable t) {
        failure = t;
        if (t instanceof Error error) {
          done = true;
          throw error;
        }
      }
      done = true;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(dueNanos - nowNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      if (other instanceof Task<?> t) {
        int byDue = Long.compare(dueNanos, t.dueNanos);
        return byDue != 0 ? byDue : Long.compare(seq, t.seq);
      }
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (done || cancelled) {
        return false;
      }
      cancelled = true;
      synchronized (lock) {
        queue.remove(this);
      }
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done || cancelled;
    }

    @Override
    public @Nullable V get() throws ExecutionException {
      if (cancelled) {
        throw new CancellationException();
      }
      if (!done) {
        throw new IllegalStateException("task has not run: advance the FakeClock first");
      }
      if (failure != null) {
        throw new ExecutionException(failure);
      }
      return result;
    }

    @Override
    public @Nullable V get(long timeout, TimeUnit unit) throws ExecutionException, TimeoutException {
      if (!done && !cancelled) {
        throw new TimeoutException("task has not run: advance the FakeClock first");
      }
      return get();
    }
  }

  private final class ManualClock extends Clock {
    private final ZoneId zone;

    ManualClock(ZoneId zone) {
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return new ManualClock(zone);
    }

    @Override
    public Instant instant() {
      return epoch.plusNanos(nowNanos);
    }
  }
}
