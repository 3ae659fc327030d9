package io.jxds.soak;

import io.grpc.CallOptions;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A steady RPC load: every {@value #TICK_MILLIS} ms, {@value #PER_TICK} unary RPCs on every open
 * channel (about 200 RPC/s per channel), each with a {@value #DEADLINE_MILLIS} ms deadline, at most
 * {@value #MAX_IN_FLIGHT} in flight per channel. Picks run on the one ticker thread.
 */
final class RpcLoad implements AutoCloseable {
  static final int TICK_MILLIS = 10;
  static final int PER_TICK = 2;
  static final int MAX_IN_FLIGHT = 200;
  static final int DEADLINE_MILLIS = 5_000;
  private static final byte[] EMPTY = new byte[0];

  private final List<SoakChannel> channels = new CopyOnWriteArrayList<>();
  private final Consumer<RpcResult> sink;
  /** The first exception the ticker met, which fails the run. */
  final AtomicReference<RuntimeException> failure = new AtomicReference<>();
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "soak-rpc-load");
    t.setDaemon(true);
    return t;
  });

  RpcLoad(Consumer<RpcResult> sink) {
    this.sink = sink;
    ticker.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  void add(SoakChannel channel) {
    channels.add(channel);
  }

  void remove(SoakChannel channel) {
    channels.remove(channel);
  }

  private void tick() {
    try {
      for (SoakChannel ch : channels) {
        for (int i = 0; i < PER_TICK && !ch.closing && ch.inFlight.get() < MAX_IN_FLIGHT; i++) {
          issue(ch);
        }
      }
    } catch (RuntimeException e) {
      // Never let the ticker die silently: a dead load generator would make every later check vacuous.
      failure.compareAndSet(null, e);
    }
  }

  private void issue(SoakChannel ch) {
    long start = System.nanoTime();
    long seq = ch.issued.getAndIncrement();
    ch.inFlight.incrementAndGet();
    ClientCalls.asyncUnaryCall(
        ch.calls.newCall(SoakBackends.WHO, CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_MILLIS,
            TimeUnit.MILLISECONDS)),
        EMPTY,
        new StreamObserver<>() {
          private int backend = -1;

          @Override
          public void onNext(byte[] value) {
            backend = Integer.parseInt(new String(value, StandardCharsets.US_ASCII));
          }

          @Override
          public void onError(Throwable t) {
            ch.inFlight.decrementAndGet();
            Status s = Status.fromThrowable(t);
            sink.accept(new RpcResult(ch, seq, start, System.nanoTime(), -1, s.getCode(),
                s.getDescription() == null ? "" : s.getDescription()));
          }

          @Override
          public void onCompleted() {
            ch.inFlight.decrementAndGet();
            sink.accept(new RpcResult(ch, seq, start, System.nanoTime(), backend, Status.Code.OK, ""));
          }
        });
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
