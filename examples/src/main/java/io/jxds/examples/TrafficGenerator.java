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
 * The first {@link Tag#workers()} workers send a header with every call, and their answered calls
 * are counted as tagged too (what a header route does to them). Worker {@code i} also sends
 * {@value #USER_HEADER}{@code : user-i} with every call: one user each, for routes that hash on it.
 */
final class TrafficGenerator implements AutoCloseable {
  /** The header naming the worker's user. */
  static final String USER_HEADER = "x-user";
  private static final long CATCH_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /**
   * The header some workers send.
   *
   * @param workers how many of the workers send it; 0 for none
   */
  record Tag(String header, String value, int workers) {
    static final Tag NONE = new Tag("x-unused", "", 0);
  }

  private final Channel channel;
  private final MethodDescriptor<byte[], byte[]> method;
  private final TrafficStats stats;
  private final long intervalNanos;
  private final Tag tag;
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean running = true;

  /**
   * @param ratePerSecond the total rate over every worker
   */
  TrafficGenerator(Channel channel, MethodDescriptor<byte[], byte[]> method, TrafficStats stats, int workers,
      int ratePerSecond) {
    this(channel, method, stats, workers, ratePerSecond, Tag.NONE);
  }

  /**
   * @param ratePerSecond the total rate over every worker
   * @param tag the header the first {@code tag.workers()} workers send
   */
  TrafficGenerator(Channel channel, MethodDescriptor<byte[], byte[]> method, TrafficStats stats, int workers,
      int ratePerSecond, Tag tag) {
    if (workers < 1 || ratePerSecond < workers || tag.workers() > workers) {
      throw new IllegalArgumentException("need at least one worker, one RPC per second per worker, and no more"
          + " tagged workers than workers");
    }
    this.channel = channel;
    this.method = method;
    this.stats = stats;
    this.intervalNanos = TimeUnit.SECONDS.toNanos(1) * workers / ratePerSecond;
    this.tag = tag;
    for (int i = 0; i < workers; i++) {
      boolean tagged = i < tag.workers();
      String user = "user-" + i;
      Thread t = new Thread(() -> run(tagged, user), "demo-rpc-" + i);
      t.setDaemon(true);
      this.workers.add(t);
    }
  }

  /** Starts the workers. */
  TrafficGenerator start() {
    workers.forEach(Thread::start);
    return this;
  }

  private void run(boolean tagged, String user) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(USER_HEADER, Metadata.ASCII_STRING_MARSHALLER), user);
    if (tagged) {
      headers.put(Metadata.Key.of(tag.header(), Metadata.ASCII_STRING_MARSHALLER), tag.value());
    }
    long next = System.nanoTime();
    while (running) {
      callOnce(headers, tagged, user);
      next += intervalNanos;
      long now = System.nanoTime();
      if (now - next > CATCH_UP_NANOS) {
        next = now; // fell behind (a slow RPC, a queued start): no burst to catch up
      }
      LockSupport.parkNanos(next - now);
    }
  }

  private void callOnce(Metadata headers, boolean tagged, String user) {
    ClientCall<byte[], byte[]> call =
        channel.newCall(method, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS));
    CompletableFuture<Status> closed = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, copy(headers)); // a call owns its headers
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
      stats.answered(address.getAddress().getHostAddress() + ":" + address.getPort(), tagged, user);
    } else {
      stats.failed(status);
    }
  }

  private static Metadata copy(Metadata headers) {
    Metadata copy = new Metadata();
    copy.merge(headers);
    return copy;
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
