package io.jxds.examples;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A few daemon worker threads that send unary RPCs through a channel at a bounded total rate and
 * record each outcome in {@link TrafficStats}: the answering backend (the call's remote address),
 * a drop, or a failure. The rate is bounded so that failing RPCs (which cost nothing) do not spin.
 */
final class TrafficGenerator implements AutoCloseable {
  private static final long CATCH_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Channel channel;
  private final MethodDescriptor<byte[], byte[]> method;
  private final TrafficStats stats;
  private final long intervalNanos;
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean running = true;

  /**
   * @param ratePerSecond the total rate over every worker
   */
  TrafficGenerator(Channel channel, MethodDescriptor<byte[], byte[]> method, TrafficStats stats, int workers,
      int ratePerSecond) {
    if (workers < 1 || ratePerSecond < workers) {
      throw new IllegalArgumentException("need at least one worker and one RPC per second per worker");
    }
    this.channel = channel;
    this.method = method;
    this.stats = stats;
    this.intervalNanos = TimeUnit.SECONDS.toNanos(1) * workers / ratePerSecond;
    for (int i = 0; i < workers; i++) {
      Thread t = new Thread(this::run, "demo-rpc-" + i);
      t.setDaemon(true);
      this.workers.add(t);
    }
  }

  /** Starts the workers. */
  TrafficGenerator start() {
    workers.forEach(Thread::start);
    return this;
  }

  private void run() {
    long next = System.nanoTime();
    while (running) {
      callOnce();
      next += intervalNanos;
      long now = System.nanoTime();
      if (now - next > CATCH_UP_NANOS) {
        next = now; // fell behind (a slow RPC, a queued start): no burst to catch up
      }
      LockSupport.parkNanos(next - now);
    }
  }

  private void callOnce() {
    ClientCall<byte[], byte[]> call =
        channel.newCall(method, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS));
    CompletableFuture<Status> closed = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    call.request(1);
    call.sendMessage(new byte[0]);
    call.halfClose();
    Status status;
    try {
      status = closed.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
      return;
    } catch (ExecutionException e) {
      status = Status.fromThrowable(e.getCause());
    }
    SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    // A backend that does not implement the method still answered: the RPC reached it.
    boolean answered = status.isOk() || status.getCode() == Status.Code.UNIMPLEMENTED;
    if (answered && remote instanceof InetSocketAddress address) {
      stats.answered(address.getAddress().getHostAddress() + ":" + address.getPort());
    } else {
      stats.failed(status);
    }
  }

  /** Stops the workers and waits for their last RPC; an interrupt is kept for the caller. */
  @Override
  public void close() {
    running = false;
    try {
      for (Thread t : workers) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
