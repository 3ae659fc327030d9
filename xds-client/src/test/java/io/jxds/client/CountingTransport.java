package io.jxds.client;

import io.jxds.client.internal.stream.AdsTransport;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** Wraps a transport and counts what the client asks of it; reconnecting on request is scriptable. */
final class CountingTransport implements AdsTransport {
  private final AdsTransport delegate;
  final AtomicInteger starts = new AtomicInteger();
  final AtomicInteger reconnects = new AtomicInteger();
  /** What {@link #reconnectNow()} does and answers; by default the wrapped transport's. */
  volatile BooleanSupplier onReconnect;

  CountingTransport(AdsTransport delegate) {
    this.delegate = delegate;
    this.onReconnect = delegate::reconnectNow;
  }

  @Override
  public Call start(Listener listener) {
    starts.incrementAndGet();
    return delegate.start(listener);
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public String target() {
    return delegate.target();
  }

  @Override
  public boolean reconnectNow() {
    reconnects.incrementAndGet();
    return onReconnect.getAsBoolean();
  }
}
