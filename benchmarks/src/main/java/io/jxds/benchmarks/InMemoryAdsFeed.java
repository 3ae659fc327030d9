package io.jxds.benchmarks;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.InsecureChannelCredentials;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.client.internal.BuilderInternals;
import io.jxds.client.internal.stream.AdsTransport;
import io.opentelemetry.api.OpenTelemetry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Benchmark seam, not API: a real {@link DefaultXdsClient} whose ADS call is in memory, so a
 * benchmark can hand it a {@link DiscoveryResponse} and measure everything the client does with
 * it (unpack, validate, cache, notify, status, ACK) without a network.
 *
 * <p>It replaces the transport through {@code BuilderInternals}, the builder's internal seam, so
 * nothing is added to xds-client's public surface.
 * Responses are handled on the calling thread (the client's sync context drains inline); what
 * the client sends may be read from another thread.
 */
public final class InMemoryAdsFeed implements AutoCloseable {
  private final Call call = new Call();
  private final DefaultXdsClient client;

  public InMemoryAdsFeed() {
    this(null);
  }

  /** A feed whose client records metrics into {@code openTelemetry} (null: none, unless a global one is set). */
  public InMemoryAdsFeed(OpenTelemetry openTelemetry) {
    AdsTransport transport =
        new AdsTransport() {
          @Override
          public Call start(Listener listener) {
            call.listener = listener;
            return call;
          }

          @Override
          public void shutdown() {}

          @Override
          public String target() {
            return "in-memory";
          }
        };
    XdsClientBuilder builder =
        XdsClientBuilder.forTarget("in-memory", InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("benchmark").build());
    if (openTelemetry != null) {
      builder.openTelemetry(openTelemetry);
    }
    client = BuilderInternals.transport(builder, transport).build();
  }

  /** The client under test. */
  public DefaultXdsClient client() {
    return client;
  }

  /** The transport is up: the client sends its subscriptions. Call after the first watch. */
  public void ready() {
    call.listener.onReady();
  }

  /** Hands {@code response} to the client as if it came off the wire. */
  public void respond(DiscoveryResponse response) {
    call.listener.onResponse(response);
  }

  /** The last request the client sent (an ACK or NACK after {@link #respond}). */
  public DiscoveryRequest lastRequest() {
    return call.last;
  }

  /** How many responses the client asked for so far (flow control). */
  public long responsesRequested() {
    return call.requested;
  }

  /** How many resource names the client's requests listed so far, in all. */
  public long namesSent() {
    return call.names;
  }

  /** How many requests (subscriptions, ACKs, NACKs) the client sent so far. */
  public long requestsSent() {
    return call.sent;
  }

  /**
   * Parks the calling thread until the client has sent {@code count} requests in all (another
   * thread is feeding it), without spinning: on a busy machine a spinning waiter takes the CPU
   * the client needs.
   *
   * @throws IllegalStateException after a minute without them
   */
  public void awaitRequestsSent(long count) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    call.waiter = Thread.currentThread();
    try {
      while (call.sent < count) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the client sent " + call.sent + " requests, not " + count);
        }
        LockSupport.parkNanos(this, 1_000_000);
      }
    } finally {
      call.waiter = null;
    }
  }

  @Override
  public void close() {
    client.close();
  }

  private static final class Call implements AdsTransport.Call {
    volatile AdsTransport.Listener listener;
    volatile DiscoveryRequest last;
    volatile long requested;
    volatile long sent;
    volatile long names;
    volatile Thread waiter;

    // Written only by the thread draining the client's sync context, one at a time.
    @Override
    public void send(DiscoveryRequest request) {
      last = request;
      names += request.getResourceNamesCount();
      sent++;
      Thread w = waiter;
      if (w != null) {
        LockSupport.unpark(w);
      }
    }

    @Override
    public void request(int count) {
      requested += count;
    }

    @Override
    public void cancel(String reason) {}
  }
}
