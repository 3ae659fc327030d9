package io.jxds.balancer.internal.endpoint;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The RPCs outstanding on one endpoint, for least request (gRFC A48): up when a picked RPC's
 * stream is created, down when it closes, whatever the outcome. It belongs to the endpoint, not
 * to a picker, so RPCs started under one picker are still counted under the next.
 */
final class ActiveRequests {
  private final AtomicInteger active = new AtomicInteger();
  private final ClientStreamTracer.Factory tracerFactory = new ClientStreamTracer.Factory() {
    @Override
    public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
      return new CountingTracer();
    }
  };

  /** RPCs open now. */
  int get() {
    return active.get();
  }

  /** The counter itself, for pickers that read it on every pick. */
  AtomicInteger count() {
    return active;
  }

  /** Attaches to a pick so that the stream it becomes is counted while open. */
  ClientStreamTracer.Factory tracerFactory() {
    return tracerFactory;
  }

  /** One per stream; a tracer closed without its stream being created never counted. */
  private final class CountingTracer extends ClientStreamTracer {
    private final AtomicBoolean created = new AtomicBoolean();

    @Override
    public void streamCreated(Attributes transportAttrs, Metadata headers) {
      if (created.compareAndSet(false, true)) {
        active.incrementAndGet();
      }
    }

    @Override
    public void streamClosed(Status status) {
      if (created.compareAndSet(true, false)) {
        active.decrementAndGet();
      }
    }
  }
}
