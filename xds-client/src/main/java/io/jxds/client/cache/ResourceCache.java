package io.jxds.client.cache;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.UnpackedResource;
import io.jxds.api.decode.XdsResourceException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every subscribed resource of one client, by type and name, with its watchers, cached value,
 * version, state and timers. All methods run on the client's {@link SynchronizationContext}.
 *
 * <p>Rules implemented here:
 * <ul>
 *   <li>gRFC A46: resources nobody subscribed are skipped without validation; a valid resource in
 *       a NACKed response still applies; an {@code Any} that cannot be decoded is an error naming
 *       its index.
 *   <li>Watchers hear only real changes ({@code equals} on the model value); the version and the
 *       update time advance anyway.
 *   <li>State-of-the-world types ({@link ResourceType#absenceMeansDeletion()}): a name missing
 *       from a response was deleted, unless its does-not-exist timer is still pending (too early
 *       to tell), the server has {@code ignore_resource_deletion} (gRFC A53: keep it, warn once),
 *       the response holds an {@code Any} whose name cannot be read (it may be the missing one),
 *       or it is the stream's first response of the type (a restarted control plane may not have
 *       its whole state yet; the next response decides, or the resource timeout if no response
 *       of the type comes).
 *   <li>Does-not-exist timer: armed by {@link #startTimers} once the request is on a ready stream,
 *       for watched names without a result (a value, an absence or a NACK); stopped by data, error, last cancel or stream close.
 *   <li>Retention: a name whose last watcher left stays subscribed and cached for the retention
 *       time, then leaves the cache and the wire.
 * </ul>
 */
public final class ResourceCache {
  private static final Logger log = LoggerFactory.getLogger(ResourceCache.class);

  /** What the cache needs from the client around it. */
  public interface Listener {
    /** The set of names subscribed for a type changed: send a request. */
    void subscriptionsChanged(String typeUrl);

    /** Whether requests written now reach a ready stream (so a timer may start). */
    boolean streamReady();

    /** Something visible in {@code status()} changed; the new snapshot may come a little later. */
    void stateChanged();

    /**
     * Something visible in {@code status()} changed and watcher callbacks about it are about to be
     * handed out: publish the new snapshot now, so a callback reading {@code status()} sees it.
     */
    void publishStatusNow();
  }

  /** A watcher callback produced by the operation in progress, handed out by {@link #dispatch()}. */
  private record Pending<T>(WatcherRegistration<T> registration, Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    void deliver() {
      registration.deliver(action, tracker);
    }
  }

  private final String nodeId;
  private final Duration resourceTimeout;
  private final Duration retention;
  private final boolean ignoreResourceDeletion;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final Clock clock;
  private final Listener listener;
  private final Map<String, TypeCache<?>> types = new TreeMap<>();
  private long responseSequence;
  /** Callbacks of the operation in progress; see {@link #dispatch()}. */
  private List<Pending<?>> pending = new ArrayList<>();
  private boolean shutdown;

  public ResourceCache(
      String nodeId,
      Duration resourceTimeout,
      Duration retention,
      boolean ignoreResourceDeletion,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      Clock clock,
      Listener listener) {
    this.nodeId = nodeId;
    this.resourceTimeout = resourceTimeout;
    this.retention = retention;
    this.ignoreResourceDeletion = ignoreResourceDeletion;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.clock = clock;
    this.listener = listener;
  }

  /** Adds a watcher; a cached value, absence or error reaches it at once, on its executor. */
  public <T> void addWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    if (shutdown || registration.isCancelled()) {
      return;
    }
    TypeCache<T> typeCache = typeCache(type);
    ResourceEntry<T> entry = typeCache.entries.get(name);
    boolean created = entry == null;
    if (created) {
      entry = new ResourceEntry<>(typeCache, name);
      typeCache.add(entry);
    }
    entry.cancelRetentionTimer();
    entry.watchers.add(registration);
    if (entry.value != null) {
      T value = entry.value;
      deliver(registration, w -> w.onUpdate(value), null);
    } else if (entry.absent) {
      String n = entry.name;
      deliver(registration, w -> w.onResourceDoesNotExist(n), null);
    } else if (entry.lastErrorStatus != null) {
      Status error = entry.lastErrorStatus;
      deliver(registration, w -> w.onError(error), null);
    }
    if (created) {
      listener.subscriptionsChanged(type.typeUrl());
    } else if (listener.streamReady()) {
      // Already on the wire: only the timer may be missing (it stops when the last watcher leaves).
      startTimer(entry);
    }
    dispatch();
  }

  /** Removes a watcher; the last one leaving starts the retention time. */
  public <T> void removeWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    TypeCache<?> typeCache = types.get(type.typeUrl());
    if (shutdown || typeCache == null) {
      return;
    }
    ResourceEntry<?> entry = typeCache.entries.get(name);
    if (entry == null || !entry.watchers.remove(registration) || !entry.watchers.isEmpty()) {
      return;
    }
    entry.cancelDoesNotExistTimer();
    if (retention.isZero()) {
      unsubscribe(typeCache, entry);
    } else {
      ResourceEntry<?> retained = entry;
      entry.retentionTimer =
          syncContext.schedule(
              () -> {
                retained.retentionTimer = null;
                if (retained.watchers.isEmpty()) {
                  unsubscribe(typeCache, retained);
                }
              },
              retention.toNanos(),
              TimeUnit.NANOSECONDS,
              scheduler);
    }
  }

  private void unsubscribe(TypeCache<?> typeCache, ResourceEntry<?> entry) {
    entry.cancelDoesNotExistTimer();
    entry.cancelPendingDeletion();
    entry.cancelRetentionTimer();
    typeCache.remove(entry);
    if (entry.deletionIgnored) {
      log.info("{} resource \"{}\" whose deletion was ignored is no longer watched", entry.type.shortName(), entry.name);
    }
    log.debug("{} resource \"{}\" unsubscribed after its retention time", entry.type.shortName(), entry.name);
    listener.subscriptionsChanged(typeCache.type.typeUrl());
    listener.stateChanged();
  }

  /** Type URLs with at least one subscribed name, in order. */
  public List<String> subscribedTypeUrls() {
    List<String> out = new ArrayList<>(types.size());
    for (TypeCache<?> t : types.values()) {
      if (!t.entries.isEmpty()) {
        out.add(t.type.typeUrl());
      }
    }
    return out;
  }

  /** Every subscribed name of a type, sorted (the request's {@code resource_names}); a live read-only view. */
  public List<String> subscribedNames(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    return t == null ? List.of() : t.sortedNames();
  }

  /** Whether any name of this type is subscribed. */
  public boolean isSubscribed(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    return t != null && !t.entries.isEmpty();
  }

  /** The subscription request for this type is on a ready stream: arm the missing timers. */
  public void startTimers(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    if (t == null || shutdown) {
      return;
    }
    for (ResourceEntry<?> entry : t.entries.values()) {
      startTimer(entry);
    }
  }

  private void startTimer(ResourceEntry<?> entry) {
    // Only names still waiting for their first answer: a NACKed name got one (its error), and
    // subscribing another name of the type must not later tell its watchers it does not exist.
    if (entry.hasResult()
        || entry.state == ResourceState.NACKED
        || entry.doesNotExistTimer != null
        || entry.watchers.isEmpty()) {
      return;
    }
    entry.doesNotExistTimer =
        syncContext.schedule(
            () -> onDoesNotExistTimer(entry), resourceTimeout.toNanos(), TimeUnit.NANOSECONDS, scheduler);
  }

  private <T> void onDoesNotExistTimer(ResourceEntry<T> entry) {
    entry.doesNotExistTimer = null;
    if (entry.hasResult()) {
      return;
    }
    log.info(
        "{} resource \"{}\" does not exist: no answer within {}",
        entry.type.shortName(),
        entry.name,
        resourceTimeout);
    markAbsent(entry, "not received within " + resourceTimeout, null);
    dispatch();
  }

  /** The stream closed: no timer may run while nothing can answer (gRFC A57). */
  public void stopAllTimers() {
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries.values()) {
        entry.cancelDoesNotExistTimer();
        // The next stream's first response postpones the deletion again if the name is still missing.
        entry.cancelPendingDeletion();
      }
    }
  }

  /**
   * A stream failed before any response: watchers without a result hear the error; watchers with
   * data keep it and hear nothing.
   */
  public void onStreamFailure(String what, Status cause) {
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries.values()) {
        if (entry.hasResult()) {
          continue;
        }
        String detail = what + ": " + cause.getCode() + (cause.getDescription() == null ? "" : ": " + cause.getDescription());
        Status error = errorStatus(entry, detail).withCause(cause.getCause());
        entry.lastErrorStatus = error;
        entry.lastError = detail;
        entry.invalidateStatus();
        notifyError(entry, error, null);
      }
    }
    dispatch();
  }

  /**
   * Applies a response. Returns null when no name of its type is subscribed (ignored, not ACKed),
   * else the ACK/NACK decision.
   *
   * @param tracker counts the watcher callbacks this response causes
   * @param firstOfTypeOnStream the stream's first response of this type: a state-of-the-world
   *     absence in it deletes nothing (a control plane that just restarted may answer before it
   *     has its whole state; grpc-java #12663); the next response of the type decides, or the
   *     resource timeout when none comes
   */
  public ResponseOutcome handleResponse(
      DiscoveryResponse response, CallbackTracker tracker, boolean firstOfTypeOnStream) {
    return handleResponse(response, tracker, firstOfTypeOnStream, outcome -> {});
  }

  /**
   * As {@link #handleResponse(DiscoveryResponse, CallbackTracker, boolean)}, and runs {@code
   * beforeCallbacks} with the decision once the response is applied, before any watcher callback
   * is handed out (so the ACK or NACK need not wait for callbacks that run inline).
   */
  public ResponseOutcome handleResponse(
      DiscoveryResponse response,
      CallbackTracker tracker,
      boolean firstOfTypeOnStream,
      Consumer<ResponseOutcome> beforeCallbacks) {
    TypeCache<?> t = types.get(response.getTypeUrl());
    if (t == null || t.entries.isEmpty() || shutdown) {
      return null;
    }
    ResponseOutcome outcome = apply(t, response, tracker, firstOfTypeOnStream);
    beforeCallbacks.accept(outcome);
    dispatch();
    return outcome;
  }

  private <T> ResponseOutcome apply(
      TypeCache<T> t, DiscoveryResponse response, CallbackTracker tracker, boolean firstOfTypeOnStream) {
    long sequence = ++responseSequence;
    String version = response.getVersionInfo();
    Instant now = clock.instant();
    List<String> errors = null;
    // An Any whose name cannot be read may hold any subscribed name: absences prove nothing then.
    boolean unnamedFailure = false;
    List<Any> resources = response.getResourcesList();
    for (int i = 0; i < resources.size(); i++) {
      UnpackedResource<T> unpacked;
      try {
        unpacked = t.type.unpack(resources.get(i));
      } catch (XdsResourceException e) {
        errors = add(errors, t.type.shortName() + " resource index " + i + ": " + e.getMessage());
        ResourceEntry<T> entry = e.resourceName() == null ? null : t.entries.get(e.resourceName());
        if (entry != null) {
          entry.seenInResponse = sequence;
          reject(entry, version, e.getMessage(), now, tracker);
        } else if (e.resourceName() == null) {
          unnamedFailure = true;
        }
        continue;
      } catch (RuntimeException e) {
        errors = add(errors, t.type.shortName() + " resource index " + i + ": cannot decode: " + e);
        unnamedFailure = true;
        continue;
      }
      ResourceEntry<T> entry = t.entries.get(unpacked.name());
      if (entry == null) {
        continue; // gRFC A46: nobody subscribed, so it is neither validated nor cached
      }
      entry.seenInResponse = sequence;
      T value;
      try {
        value = unpacked.decode();
      } catch (XdsResourceException e) {
        errors = add(errors, e.getMessage());
        reject(entry, version, e.getMessage(), now, tracker);
        continue;
      } catch (RuntimeException e) {
        String message = t.type.shortName() + " resource \"" + entry.name + "\": unexpected error: " + e;
        errors = add(errors, message);
        reject(entry, version, message, now, tracker);
        continue;
      }
      accept(entry, value, version, now, tracker);
    }
    if (t.type.absenceMeansDeletion()) {
      for (ResourceEntry<T> entry : t.entries.values()) {
        if (entry.seenInResponse == sequence) {
          entry.cancelPendingDeletion(); // it is back: the postponed deletion is off
        } else if (unnamedFailure) {
          continue; // absences prove nothing; a postponed deletion keeps waiting
        } else if (firstOfTypeOnStream) {
          postponeDeletion(entry);
        } else {
          entry.cancelPendingDeletion();
          onAbsentFromStateOfTheWorld(entry, tracker);
        }
      }
    }
    return errors == null ? ResponseOutcome.ACCEPTED : new ResponseOutcome(errors);
  }

  private static List<String> add(List<String> errors, String error) {
    List<String> out = errors == null ? new ArrayList<>() : errors;
    out.add(error);
    return out;
  }

  private <T> void accept(ResourceEntry<T> entry, T value, String version, Instant now, CallbackTracker tracker) {
    entry.cancelDoesNotExistTimer();
    boolean first = entry.value == null;
    boolean changed = first || !value.equals(entry.value);
    entry.value = value;
    entry.version = version;
    entry.state = ResourceState.ACKED;
    entry.absent = false;
    entry.lastUpdated = now;
    entry.lastError = null;
    entry.lastErrorStatus = null;
    entry.invalidateStatus();
    if (entry.deletionIgnored) {
      entry.deletionIgnored = false;
      log.info("{} resource \"{}\" is back after an ignored deletion", entry.type.shortName(), entry.name);
    }
    if (first) {
      log.info("{} resource \"{}\" received, version \"{}\"", entry.type.shortName(), entry.name, version);
    }
    if (changed) {
      for (WatcherRegistration<T> w : entry.watchers) {
        deliver(w, watcher -> watcher.onUpdate(value), tracker);
      }
    }
  }

  private <T> void reject(ResourceEntry<T> entry, String version, String message, Instant now, CallbackTracker tracker) {
    entry.cancelDoesNotExistTimer();
    entry.state = ResourceState.NACKED;
    entry.absent = false;
    // Per resource, not the whole response's text (grpc-java keeps the whole text on each).
    entry.lastError = "version \"" + version + "\" rejected: " + message;
    entry.invalidateStatus();
    Status error = errorStatus(entry, "INVALID_ARGUMENT: " + entry.lastError);
    entry.lastErrorStatus = error;
    notifyError(entry, error, tracker);
  }

  /**
   * A cached name missing from a stream's first response: a control plane that just restarted may
   * answer before it has its whole state (grpc-java #12663), so the next response of the type
   * decides. If none comes within the resource timeout the deletion is concluded then, so a
   * server that never sends another response cannot keep a deleted cluster alive forever.
   */
  private <T> void postponeDeletion(ResourceEntry<T> entry) {
    if (entry.value == null || entry.pendingDeletionTimer != null) {
      return;
    }
    log.debug(
        "{} resource \"{}\" missing from the first response on a new stream; deletion postponed",
        entry.type.shortName(),
        entry.name);
    entry.pendingDeletionTimer =
        syncContext.schedule(
            () -> {
              entry.pendingDeletionTimer = null;
              if (entry.value != null) {
                onAbsentFromStateOfTheWorld(entry, null);
                dispatch();
              }
            },
            resourceTimeout.toNanos(),
            TimeUnit.NANOSECONDS,
            scheduler);
  }

  private <T> void onAbsentFromStateOfTheWorld(ResourceEntry<T> entry, CallbackTracker tracker) {
    if (entry.doesNotExistTimer != null || entry.absent) {
      return; // just subscribed: the server may not have seen the request yet
    }
    if (entry.value != null && ignoreResourceDeletion) {
      if (!entry.deletionIgnored) {
        entry.deletionIgnored = true;
        log.warn(
            "{} resource \"{}\" left out of a response; keeping it because the server has ignore_resource_deletion",
            entry.type.shortName(),
            entry.name);
      }
      return;
    }
    if (entry.value != null) {
      log.info("{} resource \"{}\" deleted by the control plane", entry.type.shortName(), entry.name);
    }
    markAbsent(entry, "deleted by the control plane", tracker);
  }

  private <T> void markAbsent(ResourceEntry<T> entry, String why, CallbackTracker tracker) {
    entry.value = null;
    entry.absent = true;
    entry.state = ResourceState.DOES_NOT_EXIST;
    entry.lastError = why;
    entry.lastErrorStatus = null;
    entry.invalidateStatus();
    String name = entry.name;
    for (WatcherRegistration<T> w : entry.watchers) {
      deliver(w, watcher -> watcher.onResourceDoesNotExist(name), tracker);
    }
  }

  private <T> void notifyError(ResourceEntry<T> entry, Status error, CallbackTracker tracker) {
    for (WatcherRegistration<T> w : entry.watchers) {
      deliver(w, watcher -> watcher.onError(error), tracker);
    }
  }

  /**
   * Queues a callback of the operation in progress. Its tracker count starts when {@link
   * #dispatch()} hands it out; until then the response handler's own count holds the tracker.
   */
  private <T> void deliver(WatcherRegistration<T> w, Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    pending.add(new Pending<>(w, action, tracker));
  }

  /**
   * Ends an operation (a response, a timer, a stream failure, a new watcher): the status snapshot
   * is rebuilt first when callbacks follow, once per operation, so a callback that reads {@code
   * status()} sees the change it is told about; without callbacks the rebuild is coalesced.
   */
  private void dispatch() {
    if (pending.isEmpty()) {
      listener.stateChanged();
      return;
    }
    listener.publishStatusNow();
    List<Pending<?>> out = pending;
    pending = new ArrayList<>();
    for (Pending<?> p : out) {
      p.deliver();
    }
  }

  /** gRFC A54 and DESIGN.md: always UNAVAILABLE, naming the cause, the resource and the node. */
  private Status errorStatus(ResourceEntry<?> entry, String detail) {
    return Status.UNAVAILABLE.withDescription(
        detail + " [" + entry.type.shortName() + " resource \"" + entry.name + "\", node id \"" + nodeId + "\"]");
  }

  /**
   * Every subscribed resource's status, by type URL then name, as an immutable list. A type whose
   * resources did not change reuses its last list, so an EDS update does not rebuild the status of
   * ten thousand clusters.
   */
  public List<ResourceStatus> statuses() {
    if (types.size() == 1) {
      return types.values().iterator().next().statuses();
    }
    List<ResourceStatus> out = new ArrayList<>();
    for (TypeCache<?> t : types.values()) {
      out.addAll(t.statuses());
    }
    return List.copyOf(out);
  }

  /** The client is closing: cancel every timer and stop every watcher. */
  public void shutdown() {
    shutdown = true;
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries.values()) {
        entry.cancelDoesNotExistTimer();
        entry.cancelPendingDeletion();
        entry.cancelRetentionTimer();
        for (WatcherRegistration<?> w : entry.watchers) {
          w.cancel();
        }
      }
    }
    types.clear();
  }

  @SuppressWarnings("unchecked")
  private <T> TypeCache<T> typeCache(ResourceType<T> type) {
    TypeCache<?> existing = types.get(type.typeUrl());
    if (existing == null) {
      TypeCache<T> created = new TypeCache<>(type);
      types.put(type.typeUrl(), created);
      return created;
    }
    if (existing.type != type) {
      throw new IllegalArgumentException(
          "another ResourceType is already registered for " + type.typeUrl() + ": " + existing.type);
    }
    return (TypeCache<T>) existing;
  }
}
