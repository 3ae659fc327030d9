package io.jxds.testing;

import com.google.protobuf.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Writes a {@link FakeAdsServer}'s responses: one daemon thread per running server, in the order
 * the responses were produced, each with a nonce unique for the server's life (across streams and
 * restarts). Responses can be held or delayed ({@link FaultInjector}). A write that fails is
 * recorded in {@link UnexpectedErrors}, never thrown into gRPC's threads, unless the client had
 * already gone. Methods marked "lock held" are called holding the server's {@link Monitor}.
 */
final class ResponseSender {
  private final Monitor monitor;
  private final UnexpectedErrors errors;

  // Guarded by monitor.
  private @Nullable ScheduledExecutorService executor; // null while the server is stopped
  private boolean holding;
  private final List<Pending> held = new ArrayList<>();
  private Duration delay = Duration.ZERO;
  private long nextNonce = 1;

  ResponseSender(Monitor monitor, UnexpectedErrors errors) {
    this.monitor = monitor;
    this.errors = errors;
  }

  /** Starts the sending thread. */
  void start() {
    ScheduledThreadPoolExecutor newExecutor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "fake-ads-sender");
      t.setDaemon(true);
      return t;
    });
    newExecutor.setRemoveOnCancelPolicy(true);
    monitor.run(() -> executor = newExecutor);
  }

  /**
   * Stops sending (lock held): held responses are dropped, and what was queued is not sent.
   *
   * @return the sending thread's executor, for the caller to shut down and await; null if stopped
   */
  @Nullable ExecutorService detach() {
    ScheduledExecutorService old = executor;
    executor = null;
    held.clear();
    return old;
  }

  /** Whether the sending thread runs (lock held). */
  boolean isRunning() {
    return executor != null;
  }

  /** Holds, delays or sends a response produced now, with the next nonce (lock held). */
  void enqueue(AdsStream<?> stream, Message response) {
    Pending pending = new Pending(stream, response);
    if (holding) {
      held.add(pending);
    } else {
      schedule(pending);
    }
  }

  /** Sends {@code response} unchanged, at once (lock held). */
  void sendAsIs(AdsStream<?> stream, Message response) {
    submit(stream, () -> write(stream, response, false));
  }

  /** Runs a write to {@code stream} on the sending thread, after what is queued (lock held). */
  void submit(AdsStream<?> stream, Runnable write) {
    if (executor == null) {
      return;
    }
    try {
      executor.execute(guarded(write, stream));
    } catch (RejectedExecutionException e) {
      // stop() raced us.
    }
  }

  void hold() {
    monitor.run(() -> holding = true);
  }

  /** Sends the held responses in order (to streams still open) and stops holding. */
  void release() {
    monitor.run(() -> {
      holding = false;
      held.forEach(this::schedule);
      held.clear();
    });
  }

  void delay(Duration newDelay) {
    monitor.run(() -> delay = newDelay);
  }

  private void schedule(Pending pending) {
    if (executor == null) {
      return;
    }
    Runnable send = guarded(() -> write(pending.stream(), pending.response(), true), pending.stream());
    try {
      if (delay.isZero()) {
        executor.execute(send);
      } else {
        executor.schedule(send, delay.toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (RejectedExecutionException e) {
      // stop() raced us: the stream is gone, nothing to send.
    }
  }

  private Runnable guarded(Runnable write, AdsStream<?> stream) {
    return () -> {
      try {
        write.run();
      } catch (RuntimeException | Error e) {
        if (!stream.isCancelled()) {
          errors.record(e);
        }
      }
    };
  }

  /** On the sending thread: notes the response as sent on its stream (if still open), then writes it. */
  private void write(AdsStream<?> stream, Message response, boolean assignNonce) {
    Message toSend = monitor.get(() -> {
      if (!stream.open) {
        return null;
      }
      return stream.noteSent(response, assignNonce ? Long.toString(nextNonce++) : null);
    });
    if (toSend != null) {
      stream.send(toSend);
    }
  }

  private record Pending(AdsStream<?> stream, Message response) {}
}
