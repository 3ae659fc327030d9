package io.jxds.benchmarks;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.testing.FakeLbHelper;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long the control plane waits for the ACK of an EDS update: from the response's bytes
 * reaching the client's transport thread to the ACK being written, next to the decode time of
 * the same bytes.
 *
 * <p>As in a channel: a real {@code DefaultXdsClient} (through {@link InMemoryAdsFeed}, no
 * network) whose responses arrive on one "transport" thread, as gRPC delivers them, and whose
 * endpoints watcher is a real {@link EdsBalancer} (priority, locality and endpoint layers, a
 * {@link FakeLbHelper#readyOnStart()} channel stand-in) registered with the helper's
 * SynchronizationContext, which runs the callback inline on that thread. Two responses (every
 * endpoint's weight changes) alternate so every update is a real change.
 *
 * <ul>
 *   <li>{@code ack}: hand the bytes to the transport thread (parse, then the client) and wait
 *       until the ACK is written. The watcher callbacks that follow finish before the next
 *       invocation (outside the measurement), as flow control holds the next response back.
 *   <li>{@code untilCallbacksDone}: the same, waiting until the balancer has its new picker and
 *       the client has asked for the next response: the whole update.
 *   <li>{@code decode}: {@code DiscoveryResponse.parseFrom} plus the client's unpack and decode of
 *       every resource, on the benchmark thread: the floor of {@code ack}.
 *   <li>{@code handoff}: a no-op handed to the transport thread and waited for: the fixed cost
 *       {@code ack} and {@code untilCallbacksDone} include.
 * </ul>
 *
 * <p>Sample mode: the percentiles (p0.50 above all) hold up on a machine shared with other work,
 * where a descheduled thread ruins an average. Waiting threads park, never spin.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AckLatencyBenchmark {
  @Param({"1000", "10000"})
  public int endpoints;

  ExecutorService transport;
  FakeLbHelper helper;
  InMemoryAdsFeed feed;
  EdsBalancer balancer;
  byte[][] responses;
  int next;
  private volatile long handoffs;

  @Setup(Level.Trial)
  public void setUp() {
    EdsUpdateBenchmark shapes = new EdsUpdateBenchmark();
    shapes.endpoints = endpoints;
    shapes.change = "weights";
    responses = new byte[][] {shapes.response(0).toByteArray(), shapes.response(1).toByteArray()};
    transport = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "ack-latency-transport");
      t.setDaemon(true);
      return t;
    });
    helper = FakeLbHelper.forBenchmarks(true);
    feed = new InMemoryAdsFeed();
    balancer = EdsUpdateBenchmark.startBalancer(helper, feed);
    feed.ready();
    next = 1;
    DiscoveryRequest ack = deliver();
    awaitTransportIdle();
    if (!ack.getVersionInfo().equals("2") || ack.hasErrorDetail() || helper.subchannelCount() != endpoints) {
      throw new IllegalStateException("setup: ACK " + ack + ", " + helper.subchannelCount() + " subchannels");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    helper.run(balancer::shutdown);
    feed.close();
    transport.shutdownNow();
    transport.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** Lets the last update's callbacks finish (not measured): the next response waits for them. */
  @TearDown(Level.Invocation)
  public void settle() {
    awaitTransportIdle();
  }

  @Benchmark
  public DiscoveryRequest ack() {
    return deliver();
  }

  @Benchmark
  public DiscoveryRequest untilCallbacksDone() {
    DiscoveryRequest ack = deliver();
    awaitTransportIdle();
    return ack;
  }

  @Benchmark
  public long decode() throws InvalidProtocolBufferException, XdsResourceException {
    DiscoveryResponse response = DiscoveryResponse.parseFrom(responses[next++ & 1]);
    long sum = 0;
    for (Any any : response.getResourcesList()) {
      sum += ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, any).decode().localities().size();
    }
    return sum;
  }

  @Benchmark
  public long handoff() {
    long target = handoffs + 1;
    Thread waiter = Thread.currentThread();
    transport.execute(() -> {
      handoffs = target;
      LockSupport.unpark(waiter);
    });
    while (handoffs != target) {
      LockSupport.parkNanos(this, 1_000_000);
    }
    return target;
  }

  /** Hands the next response to the transport thread and returns its ACK once written. */
  DiscoveryRequest deliver() {
    byte[] bytes = responses[next++ & 1];
    long sentBefore = feed.requestsSent();
    transport.execute(() -> {
      try {
        feed.respond(DiscoveryResponse.parseFrom(bytes));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
    });
    feed.awaitRequestsSent(sentBefore + 1);
    return feed.lastRequest();
  }

  private void awaitTransportIdle() {
    get(transport.submit(() -> {}));
  }

  private static void get(Future<?> f) {
    try {
      f.get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }
}
