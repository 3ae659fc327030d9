package io.jxds.api;

/** A registered watch. */
@FunctionalInterface
public interface WatchHandle {
  /**
   * Stops the watcher's callbacks. Idempotent, callable from any thread including a callback; a
   * callback already running may finish.
   */
  void cancel();
}
