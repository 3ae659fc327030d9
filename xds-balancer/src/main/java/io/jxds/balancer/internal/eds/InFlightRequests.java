package io.jxds.balancer.internal.eds;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The number of RPC streams open to one (cluster, EDS service name), shared by every channel of
 * the process, for circuit breaking (gRFC A32: {@code max_requests}).
 *
 * <p>Counted always, whether or not load reporting is on (grpc-java counts only with LRS): up
 * in the stream tracer's {@code streamCreated}, down in its {@code streamClosed}, whatever the
 * outcome. A pick that never becomes a stream (deadline passed, call cancelled before the
 * transport) never counts.
 *
 * <p>Entries live as long as the process: there is one per distinct cluster a process has ever
 * used, a few hundred bytes each.
 */
final class InFlightRequests {
  private record Key(String cluster, String edsServiceName) {}

  private static final ConcurrentMap<Key, InFlightRequests> ALL = new ConcurrentHashMap<>();

  private final AtomicLong open = new AtomicLong();
  private final ClientStreamTracer.Factory tracerFactory = new CountingTracerFactory();

  private InFlightRequests() {}

  /** The process-wide counter of {@code cluster} and {@code edsServiceName}. */
  static InFlightRequests of(String cluster, String edsServiceName) {
    return ALL.computeIfAbsent(new Key(cluster, edsServiceName), k -> new InFlightRequests());
  }

  /** Streams open now. */
  long open() {
    return open.get();
  }

  /** Attaches to a pick so the stream it becomes is counted while open. */
  ClientStreamTracer.Factory tracerFactory() {
    return tracerFactory;
  }

  private final class CountingTracerFactory extends ClientStreamTracer.Factory {
    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new CountingTracer();
    }
  }

  /**
   * One per stream: gRPC may close a tracer whose stream was never created (per-call credentials
   * that fail, a transport gone before the stream), so only a created stream is counted down.
   */
  private final class CountingTracer extends ClientStreamTracer {
    private final AtomicBoolean created = new AtomicBoolean();

    @Override
    public void streamCreated(Attributes transportAttrs, Metadata headers) {
      if (created.compareAndSet(false, true)) {
        open.incrementAndGet();
      }
    }

    @Override
    public void streamClosed(Status status) {
      if (created.compareAndSet(true, false)) {
        open.decrementAndGet();
      }
    }
  }
}
