package io.jxds.client.internal.cache;

import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceWatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What watchers are told, and when: the callbacks an operation of the cache (a response, a timer,
 * a stream failure, a new watcher) causes are collected while it runs and handed out at the end of
 * the sync context's turn, after one status rebuild, so that a callback reading {@code status()}
 * sees the change it is told about (ARCHITECTURE.md, "The xDS client": the ACK goes out before
 * any callback). A response's callbacks count on its {@link CallbackTracker}: the stream asks for
 * the next response only once they have all run.
 *
 * <p>Every error a watcher hears is UNAVAILABLE (gRFC A54) naming the cause, the resource and the
 * node.
 */
final class WatcherDelivery {
  /** A callback of the operation in progress, handed out by {@link #dispatch()}. */
  private record Pending<T>(WatcherRegistration<T> registration, Consumer<ResourceWatcher<T>> action,
      CallbackTracker tracker) {
    void deliver() {
      registration.deliver(action, tracker);
    }
  }

  private final String nodeId;
  private final SynchronizationContext syncContext;
  /** Something status() shows changed: a coalesced rebuild. */
  private final Runnable stateChanged;
  /** Rebuilds status() now, before callbacks about the change run. */
  private final Runnable publishStatusNow;
  /** Callbacks of the operation in progress. */
  private List<Pending<?>> pending = new ArrayList<>();
  /** Callbacks of the turn's operations, handed out at its end; see {@link #handOut()}. */
  private List<Pending<?>> handOut = new ArrayList<>();
  private boolean handOutQueued;
  private boolean shutdown;

  WatcherDelivery(String nodeId, SynchronizationContext syncContext, Runnable stateChanged,
      Runnable publishStatusNow) {
    this.nodeId = nodeId;
    this.syncContext = syncContext;
    this.stateChanged = stateChanged;
    this.publishStatusNow = publishStatusNow;
  }

  /** gRFC A54 and ARCHITECTURE.md: always UNAVAILABLE, naming the cause, the resource and the node. */
  Status errorStatus(ResourceEntry<?> entry, String detail) {
    return Status.UNAVAILABLE.withDescription(
        detail + " [" + entry.type().shortName() + " resource \"" + entry.name + "\", node id \"" + nodeId + "\"]");
  }

  <T> void tellUpdate(ResourceEntry<T> entry, T value, CallbackTracker tracker) {
    for (WatcherRegistration<T> w : entry.watchers()) {
      pending.add(new Pending<>(w, watcher -> watcher.onUpdate(value), tracker));
    }
  }

  <T> void tellAbsent(ResourceEntry<T> entry, CallbackTracker tracker) {
    String name = entry.name;
    for (WatcherRegistration<T> w : entry.watchers()) {
      pending.add(new Pending<>(w, watcher -> watcher.onResourceDoesNotExist(name), tracker));
    }
  }

  <T> void tellError(ResourceEntry<T> entry, Status error, CallbackTracker tracker) {
    for (WatcherRegistration<T> w : entry.watchers()) {
      pending.add(new Pending<>(w, watcher -> watcher.onError(error), tracker));
    }
  }

  /** How many callbacks the operation in progress has caused so far. */
  int pendingCount() {
    return pending.size();
  }

  /**
   * Tells a new watcher what is known, ahead of the callbacks the operation caused after the first
   * {@code position} (a kept delta value's rejection goes after the retained value).
   */
  <T> void tellNewWatcher(int position, WatcherRegistration<T> registration, Consumer<ResourceWatcher<T>> action) {
    pending.add(position, new Pending<>(registration, action, null));
  }

  /**
   * Ends an operation: its callbacks are handed out at the end of the context's turn, after a
   * status rebuild; without callbacks the rebuild is coalesced. A response's tracker counts each
   * callback from here (until then the response handler's own count holds it).
   */
  void dispatch() {
    if (pending.isEmpty()) {
      stateChanged.run();
      return;
    }
    for (Pending<?> p : pending) {
      if (p.tracker() != null) {
        p.tracker().begin(); // flow control: the response is not done until its callbacks are out
      }
    }
    handOut.addAll(pending);
    pending.clear();
    if (!handOutQueued) {
      handOutQueued = true;
      syncContext.executeLater(this::handOut);
    }
  }

  /**
   * Hands out the callbacks of every operation of the context's current turn, in order, after one
   * status rebuild: a burst of watches of cached resources (thousands of channels starting, a
   * delta server's kept clusters) then rebuilds the status once per turn, not once per watch.
   */
  private void handOut() {
    handOutQueued = false;
    List<Pending<?>> out = handOut;
    handOut = new ArrayList<>();
    if (!shutdown) {
      publishStatusNow.run();
    }
    for (Pending<?> p : out) {
      if (!shutdown) {
        p.deliver();
      }
      if (p.tracker() != null) {
        p.tracker().end();
      }
    }
  }

  /** The client is closing: callbacks still to be handed out are dropped (their counts end). */
  void shutdown() {
    shutdown = true;
  }
}
