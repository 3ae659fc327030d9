package io.jxds.balancer.internal.resolver;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One faulted call (gRFC A33): nothing is sent, and no pick is made, until its fault is over. At
 * {@code start} it takes a place in {@link ActiveFaults} (when its filter's
 * {@code max_active_faults} is reached, the call runs as if it had drawn no fault); then it waits
 * its delay on the channel's scheduler, no thread blocked, and ends its fault: with an abort it
 * closes with the abort's status, else it creates the real call below and starts it. What the
 * application does meanwhile ({@code request}, {@code sendMessage}, {@code halfClose}, ...) is kept
 * and replayed in order on the real call. A cancel during the delay ends the fault and closes the
 * call CANCELLED; a deadline that expires during the delay closes it DEADLINE_EXCEEDED at that time.
 *
 * <p>The application's thread and the scheduler's meet here: the queue is guarded by this object's
 * monitor, and once the real call exists every method goes straight to it.
 */
final class FaultCall<Q, R> extends ClientCall<Q, R> {
  private final MethodDescriptor<Q, R> method;
  private final CallOptions options;
  private final Channel next;
  private final FaultPolicy.Fault fault;
  private final ScheduledExecutorService scheduler;
  private final ActiveFaults active;
  /** Set once the fault phase is over (by its end, a cancel, or no place in ActiveFaults). */
  private final AtomicBoolean over = new AtomicBoolean();
  private volatile boolean passThrough;
  private @Nullable ClientCall<Q, R> real; // set before passThrough, under the monitor
  private List<Runnable> pending = new ArrayList<>(); // guarded by this
  private @Nullable Listener<R> listener;
  private @Nullable Metadata headers;
  private @Nullable Future<?> timer;
  private long startNanos;

  FaultCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next, FaultPolicy.Fault fault,
      ScheduledExecutorService scheduler, ActiveFaults active) {
    this.method = method;
    this.options = options;
    this.next = next;
    this.fault = fault;
    this.scheduler = scheduler;
    this.active = active;
  }

  @Override
  public void start(Listener<R> callListener, Metadata callHeaders) {
    synchronized (this) {
      this.listener = callListener;
      this.headers = callHeaders;
    }
    if (over.get()) {
      callListener.onClose(Status.CANCELLED.withDescription("cancelled before start"), new Metadata());
      return;
    }
    if (!active.tryAcquire(fault.maxActiveFaults())) {
      over.set(true);
      startReal(); // gRFC A33: max_active_faults reached, the call is not faulted
      return;
    }
    if (fault.delayNanos() <= 0) {
      end(false);
      return;
    }
    startNanos = System.nanoTime();
    long wait = fault.delayNanos();
    Deadline deadline = options.getDeadline();
    boolean deadlineFirst = false;
    if (deadline != null) {
      long left = Math.max(0, deadline.timeRemaining(TimeUnit.NANOSECONDS));
      if (left < wait) {
        wait = left;
        deadlineFirst = true;
      }
    }
    boolean expired = deadlineFirst;
    Future<?> scheduled = scheduler.schedule(() -> end(expired), wait, TimeUnit.NANOSECONDS);
    synchronized (this) {
      timer = scheduled;
    }
  }

  /** The fault phase ends: the deadline expired, the abort closes the call, or the real call starts. */
  private void end(boolean deadlineExpired) {
    if (!over.compareAndSet(false, true)) {
      return; // cancelled meanwhile
    }
    if (deadlineExpired) {
      long waited = System.nanoTime() - startNanos;
      closeFaulted(Status.DEADLINE_EXCEEDED.withDescription(
          "deadline exceeded after " + waited + " ns of fault-injected delay (gRFC A33)"));
      return;
    }
    if (fault.abort() != null) {
      closeFaulted(fault.abort());
      return;
    }
    active.release();
    startReal();
  }

  private void startReal() {
    ClientCall<Q, R> call = next.newCall(method, options);
    Listener<R> l;
    Metadata h;
    synchronized (this) {
      real = call;
      l = listener;
      h = headers;
    }
    call.start(l, h);
    drain();
  }

  /** Closes the call with {@code status} on the call's executor, then gives its place back. */
  private void closeFaulted(Status status) {
    Listener<R> l;
    synchronized (this) {
      real = new NoopCall<>();
      l = listener;
    }
    drain();
    Executor executor = options.getExecutor();
    Runnable close = () -> {
      try {
        l.onClose(status, new Metadata());
      } finally {
        active.release();
      }
    };
    if (executor == null) {
      close.run();
    } else {
      executor.execute(close);
    }
  }

  /** Runs what the application did meanwhile, in order; then every method goes to the real call. */
  private void drain() {
    while (true) {
      List<Runnable> toRun;
      synchronized (this) {
        if (pending.isEmpty()) {
          passThrough = true;
          return;
        }
        toRun = pending;
        pending = new ArrayList<>();
      }
      for (Runnable r : toRun) {
        r.run();
      }
    }
  }

  private void runOrQueue(Runnable r) {
    if (!passThrough) {
      synchronized (this) {
        if (!passThrough) {
          pending.add(r);
          return;
        }
      }
    }
    r.run();
  }

  @Override
  public void request(int numMessages) {
    runOrQueue(() -> real.request(numMessages));
  }

  @Override
  public void cancel(@Nullable String message, @Nullable Throwable cause) {
    if (over.compareAndSet(false, true)) {
      Listener<R> l;
      Future<?> t;
      synchronized (this) {
        l = listener;
        t = timer;
      }
      if (t != null) {
        t.cancel(false);
      }
      if (l == null) {
        synchronized (this) {
          real = new NoopCall<>();
        }
        drain();
        return; // cancelled before start: no place was taken
      }
      closeFaulted(Status.CANCELLED.withDescription(message == null ? "cancelled during a fault-injected delay"
          : message).withCause(cause));
      return;
    }
    runOrQueue(() -> real.cancel(message, cause));
  }

  @Override
  public void halfClose() {
    runOrQueue(() -> real.halfClose());
  }

  @Override
  public void sendMessage(Q message) {
    runOrQueue(() -> real.sendMessage(message));
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    runOrQueue(() -> real.setMessageCompression(enabled));
  }

  @Override
  public boolean isReady() {
    return passThrough && real.isReady();
  }

  @Override
  public Attributes getAttributes() {
    return passThrough ? real.getAttributes() : Attributes.EMPTY;
  }

  /** What a faulted call's methods go to once it is closed. */
  private static final class NoopCall<Q, R> extends ClientCall<Q, R> {
    @Override
    public void start(Listener<R> responseListener, Metadata headers) {}

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(@Nullable String message, @Nullable Throwable cause) {}

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(Q message) {}
  }
}
