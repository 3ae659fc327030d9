package io.jxds.client.internal.cache;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the watcher callbacks one response caused and runs an action once all of them have run:
 * ADS flow control asks for the next response only then, so a slow watcher slows the stream
 * instead of making the client buffer without bound.
 *
 * <p>Starts at one pending unit owned by the response handler, released by {@link #finish()}.
 * Callbacks end on watcher executors, so the count is atomic.
 */
public final class CallbackTracker {
  private final AtomicInteger pending = new AtomicInteger(1);
  private final Runnable onAllDone;

  /** @param onAllDone runs once, on the thread that ends the last callback */
  public CallbackTracker(Runnable onAllDone) {
    this.onAllDone = onAllDone;
  }

  void begin() {
    pending.incrementAndGet();
  }

  void end() {
    if (pending.decrementAndGet() == 0) {
      onAllDone.run();
    }
  }

  /** The response handler is done scheduling callbacks. */
  public void finish() {
    end();
  }
}
