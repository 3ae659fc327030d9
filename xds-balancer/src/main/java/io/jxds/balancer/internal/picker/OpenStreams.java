package io.jxds.balancer.internal.picker;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A count of open RPC streams, kept by the stream tracer a picker attaches to its picks: up when
 * a picked RPC's stream is created, down when it closes, whatever the outcome. A pick that never
 * becomes a stream (deadline passed, call cancelled before the transport) never counts, and gRPC
 * may close a tracer whose stream was never created, so only a created stream is counted down.
 * Used per endpoint by least request.
 */
public final class OpenStreams {
  private final AtomicLong open = new AtomicLong();
  private final ClientStreamTracer.Factory tracerFactory = new ClientStreamTracer.Factory() {
    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new CountingTracer();
    }
  };

  /** Streams open now. */
  public long get() {
    return open.get();
  }

  /** The counter itself, for pickers that read it on every pick. */
  public AtomicLong counter() {
    return open;
  }

  /** Attaches to a pick so that the stream it becomes is counted while open. */
  public ClientStreamTracer.Factory tracerFactory() {
    return tracerFactory;
  }

  /** One per stream. */
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
