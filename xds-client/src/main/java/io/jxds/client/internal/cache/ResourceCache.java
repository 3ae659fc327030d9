package io.jxds.client.internal.cache;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.client.internal.DurationFormat;
import io.jxds.client.internal.cache.ResourceEntry.Wire;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every resource of one client, by type and name: where each name is on the wire and what is
 * known about it (ARCHITECTURE.md, "Glossary"; {@link ResourceEntry}), the watchers, and the rules
 * that move them. Every public method runs on the client's {@link SynchronizationContext}, and
 * checks that it does.
 *
 * <p>Watching (this class): on the wire is what is watched. A name whose last watcher leaves is
 * left out of the next request of its type at once, and its value or absence is retained (off
 * the wire, out of {@code status()}, untouched by responses and timers, save a delta {@code
 * removed_resources}) for the cache retention time: a watcher that comes back within it is told
 * at once, even with the control plane away, and the name is requested again. Except for the last
 * name of a type on a state-of-the-world stream: no request says "nothing" to every server, so
 * none is sent and the last one stands. Its name is held: the server still answers for it, so
 * responses keep applying to it and are ACKed with it, and a watcher coming back finds data as
 * current as the server believes it is. The hold ends when a name of the type is watched (the next
 * request replaces the standing one) or the stream ends. A watcher of a name without data added
 * while the ADS stream is failing hears the stream's error at once, not only at the next failed
 * attempt (up to 120 s later).
 *
 * <p>The other rules live beside it, one class each: {@link AppliedResponse} (gRFC A46: validating
 * and caching a response's resources), {@link AbsenceRules} (absence, deletions and the
 * does-not-exist timer), {@link DeltaResponses} (delta xDS: removals, resources kept for a later
 * watch, values that do not outlive their stream), {@link WatcherDelivery} (when watchers hear
 * what), {@link TypeCache} (the names on the wire, derived from the entries).
 */
public final class ResourceCache {
  private static final Logger log = LoggerFactory.getLogger(ResourceCache.class);

  /** What the cache tells the client around it: status snapshots and metrics. */
  public interface Listener {
    /** Something visible in {@code status()} changed; the new snapshot may come a little later. */
    void stateChanged();

    /**
     * Something visible in {@code status()} changed and watcher callbacks about it are about to be
     * handed out: publish the new snapshot now, so a callback reading {@code status()} sees it.
     */
    void publishStatusNow();

    /**
     * A response's resources that somebody watches were validated (gRFC A78's {@code
     * resource_updates_valid} and {@code _invalid}), sent by {@code server} (its target); an {@code
     * Any} that cannot be read counts as invalid.
     */
    default void resourcesValidated(String server, String typeUrl, int valid, int invalid) {}

    /** gRFC A78's {@code server_failure}: the stream to {@code server} went from working to failing. */
    default void serverFailed(String server) {}
  }

  /** The error of the last ADS stream that failed before any response, with its cause and server. */
  private record ConnectionFailure(String detail, Throwable cause, String server) {}

  private final Duration cacheRetention;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final Clock clock;
  private final Servers servers;
  private final Listener listener;
  private final WatcherDelivery delivery;
  private final AbsenceRules absence;
  private final DeltaResponses delta;
  private final Map<String, TypeCache<?>> types = new TreeMap<>();
  /** Numbers the responses applied (and kept delta resources): see {@code AppliedResponse.sequence}. */
  private long responseSequence;
  /**
   * Per chain, set while its serving stream is failing: from a stream failure to the next response.
   * Empty while every stream works, so a response costs one check.
   */
  private final Map<Servers, ConnectionFailure> failures = new IdentityHashMap<>(2);
  private boolean shutdown;

  /**
   * @param resourceTimeout how long a watched name may await its answer (the does-not-exist timer)
   * @param cacheRetention how long the value of a resource nobody watches stays cached (off the
   *     wire); zero forgets it at once
   * @param clock stamps update times
   * @param nanoTicker monotonic time, in nanoseconds, for how long a deletion has been postponed
   */
  public ResourceCache(
      String nodeId,
      Duration resourceTimeout,
      Duration cacheRetention,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      Clock clock,
      LongSupplier nanoTicker,
      Servers servers,
      Listener listener) {
    this.cacheRetention = cacheRetention;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.clock = clock;
    this.servers = servers;
    this.listener = listener;
    this.delivery = new WatcherDelivery(nodeId, syncContext, listener::stateChanged, listener::publishStatusNow);
    this.absence = new AbsenceRules(resourceTimeout, nanoTicker, delivery);
    this.delta = new DeltaResponses(clock, () -> ++responseSequence, delivery, absence);
  }

  /** Adds a watcher; a cached value, absence or error reaches it at once, on its executor. */
  public <T> void addWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    addWatcher(type, name, servers, registration);
  }

  /**
   * Adds a watcher of a name that {@code chain} carries (gRFC A47: its authority's), if the name
   * is new to the cache; a cached value, absence or error reaches it at once, on its executor.
   */
  public <T> void addWatcher(
      ResourceType<T> type, String name, Servers chain, WatcherRegistration<T> registration) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown || registration.isCancelled()) {
      return;
    }
    TypeCache<T> t = typeCache(type);
    ResourceEntry<T> entry = t.get(name);
    boolean wentOnWire = entry == null || !entry.watched();
    if (entry == null) {
      entry = t.create(name, chain);
    } else if (entry.wire() == Wire.HELD) {
      entry.watchAgainWhileHeld(t.nextMark());
    } else if (entry.wire() == Wire.RETAINED) {
      // Delta versions are per resource: the retained value is at the version the client ACKed,
      // and a live stream that sent it need not send it again (java-control-plane does not). A
      // value whose stream has ended must be sent again by the server now serving, which was not
      // told the client holds it: until then it is unconfirmed (see AbsenceRules).
      entry.watchAgain(entry.servers().stateOfTheWorld() ? t.acceptedVersion() : entry.vouched() ? entry.version() : "",
          t.nextMark());
      log.debug("{} resource \"{}\" watched again; serving its retained value", type.shortName(), name);
    }
    entry.addWatcher(registration);
    int queued = delivery.pendingCount();
    boolean told = delta.applyKept(t, name); // a delta server sent it before it was watched
    // A valid kept value that changed reached the watcher as an update. A rejected one reached it
    // as an error only: the last good value, told below, goes ahead of that error.
    boolean errorQueued = !told && delivery.pendingCount() > queued;
    t.releaseHold(); // the request this watch sends replaces the standing one
    ConnectionFailure failure = failures.isEmpty() ? null : failures.get(entry.servers());
    if (entry.value() == null && !entry.absent() && entry.error() == null && failure != null) {
      // The stream is failing: the next attempt may be minutes away, and the watcher's channel
      // should fail fast with the reason rather than hang until then (told just below).
      streamFailed(entry, failure);
    }
    Consumer<ResourceWatcher<T>> tell = null;
    if (told) {
      // nothing more to say
    } else if (entry.value() != null) {
      T value = entry.value();
      tell = w -> w.onUpdate(value);
    } else if (entry.absent()) {
      tell = w -> w.onResourceDoesNotExist(name);
    } else if (entry.error() != null && !errorQueued) {
      Status error = entry.error();
      tell = w -> w.onError(error);
    }
    if (tell != null) {
      delivery.tellNewWatcher(queued, registration, tell); // ahead of a kept value's rejection
    }
    if (wentOnWire) {
      entry.servers().wireChanged(type.typeUrl(), name);
    } else if (entry.servers().streamReady()) {
      absence.armDoesNotExistTimer(entry);
    }
    delivery.dispatch();
  }

  /**
   * Removes a watcher. The last one leaving takes the name off the wire (or holds it, if it was
   * its type's last name on a state-of-the-world stream) and retains its value or absence, if
   * any, for the cache retention time.
   */
  public <T> void removeWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(type.typeUrl());
    if (shutdown || t == null) {
      return;
    }
    ResourceEntry<?> entry = t.get(name);
    if (entry == null || !entry.removeWatcher(registration) || entry.hasWatchers()) {
      return;
    }
    if (entry.clearIgnoredDeletion()) {
      log.info("{} resource \"{}\" whose deletion was ignored is no longer watched", type.shortName(), name);
    }
    // The last name of its type: no request is sent, so the one naming it stands.
    boolean hold = t.watchedCount() == 1 && entry.servers().stateOfTheWorld();
    // An absence is retained like a value: a channel that wakes on a deleted cluster should
    // fail at once with "does not exist", not wait out the resource timeout again.
    boolean retain = entry.cached() && !cacheRetention.isZero();
    entry.unwatch(hold, cacheRetention);
    if (retain) {
      log.debug("{} resource \"{}\" unwatched; retained for {}", type.shortName(), name,
          DurationFormat.format(cacheRetention));
    } else if (!hold) {
      log.debug("{} resource \"{}\" unwatched", type.shortName(), name);
    }
    entry.servers().wireChanged(type.typeUrl(), name);
    listener.stateChanged();
  }

  /** Type URLs with at least one watched name, in order. */
  public List<String> watchedTypeUrls() {
    syncContext.throwIfNotInThisSynchronizationContext();
    List<String> out = new ArrayList<>(types.size());
    for (TypeCache<?> t : types.values()) {
      if (t.hasWatched()) {
        out.add(t.type.typeUrl());
      }
    }
    return out;
  }

  /**
   * The names of a type on the wire, sorted (a request's or an ACK's {@code resource_names}): the
   * watched ones, or while none is watched the held one. A read-only view, valid until the sync
   * context's task ends.
   */
  public List<String> wireNames(String typeUrl) {
    return wireNames(typeUrl, null);
  }

  /**
   * {@link #wireNames(String)}, of the names {@code via}'s stream carries when streams carry
   * different names (federation, gRFC A47: a controller's names are those of the chains that have
   * it active); every name when {@code via} is null.
   */
  public List<String> wireNames(String typeUrl, Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    return t == null ? List.of() : via == null ? t.wireNames() : t.wireNames(via);
  }

  /**
   * Whether any name of this type that {@code via}'s stream carries (see {@link #wireNames(String,
   * Object)}) is watched. When none is, no state-of-the-world request for the
   * type is sent: an empty {@code resource_names} does not mean "nothing" to every server.
   */
  public boolean hasWatched(String typeUrl, Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    return t != null && (via == null ? t.hasWatched() : t.hasWatched(via));
  }

  /**
   * Whether {@code name} of this type is watched and goes on {@code via}'s stream (see {@link
   * #wireNames(String, Object)}; delta: whether the server should track it).
   */
  public boolean isWatched(String typeUrl, String name, Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    ResourceEntry<?> entry = t == null ? null : t.get(name);
    return entry != null && entry.watched() && (via == null || entry.servers().carries(via));
  }

  /**
   * {@code chain} fell back to a server whose stream is open already (federation, gRFC A47): its
   * names get new wire marks, so that an answer to a request written before cannot conclude
   * their absence.
   */
  public void remark(Servers chain) {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries()) {
        if (entry.watched() && entry.servers() == chain) {
          entry.remark(t.nextMark());
        }
      }
    }
  }

  /**
   * The latest wire mark of this type: a request written now names every watched name whose mark
   * is at most this (see {@link #handleResponse}'s {@code answeredMark}).
   */
  public long wireMark(String typeUrl) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    return t == null ? 0 : t.mark();
  }

  /**
   * The version of every watched name of this type (that {@code via}'s stream carries) whose cached
   * value came from {@code stream}'s server: a new delta stream's {@code initial_resource_versions}
   * (a version from another server means nothing to this one). Told so, {@code stream} would send a
   * change or removal of each: it vouches for them.
   */
  public Map<String, String> cachedVersions(String typeUrl, StreamId stream, Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    Map<String, String> out = t == null ? Map.of() : delta.cachedVersions(t, stream, via);
    if (!out.isEmpty()) {
      listener.stateChanged(); // a value watched again may be confirmed now
    }
    return out;
  }

  /**
   * A delta stream ended. The values it vouched for are no longer vouched for by a live stream:
   * the next stream's {@code initial_resource_versions} names only watched values, so its server
   * would not send the removal of the others (a retained value watched again must then be sent
   * again). What it sent for names nobody watches stays the newest the client knows until another
   * stream is ready ({@link #streamReady}).
   */
  public void deltaStreamEnded(StreamId stream) {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (TypeCache<?> t : types.values()) {
      delta.streamEnded(t, stream);
    }
  }

  /**
   * A stream (of either protocol, to any server) is ready, before its first requests: what ended
   * delta streams sent for names still unwatched is dropped, since its server was not told of it.
   */
  public void streamReady() {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (TypeCache<?> t : types.values()) {
      delta.streamReady(t);
    }
  }

  /**
   * The type's request is on a ready stream: arm the does-not-exist timers of its names (those
   * {@code via}'s stream carries, see {@link #wireNames(String, Object)}).
   */
  public void requestSent(String typeUrl, Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    TypeCache<?> t = types.get(typeUrl);
    if (t == null || shutdown) {
      return;
    }
    boolean newlyRequested = false;
    for (ResourceEntry<?> entry : t.entries()) {
      if (via != null && !entry.servers().carries(via)) {
        continue;
      }
      boolean was = entry.requested();
      absence.armDoesNotExistTimer(entry);
      newlyRequested |= !was && entry.requested();
    }
    if (newlyRequested) {
      listener.stateChanged(); // names that had reached no server (UNKNOWN) are REQUESTED now (gRFC A40)
    }
  }

  /**
   * No server of {@code chain} has a ready stream: no timer of its names may run while nothing can
   * answer (gRFC A57). A postponed deletion keeps the time its name was first left out, for the
   * next stream to go on from. Held names leave the wire with the stream (a new stream requests
   * only watched names).
   */
  public void noStreamReady(Servers chain) {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries()) {
        if (entry.servers() == chain) {
          if (entry.wire() == Wire.HELD) {
            entry.releaseHold();
          }
          entry.stopTimers();
        }
      }
    }
  }

  /**
   * Whether some watched name of {@code chain} knows nothing: no value, no absence, no NACK (gRFC
   * A71: what makes the chain fall back to its next server).
   */
  public boolean anyWatchedKnowsNothing(Servers chain) {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.inOrder()) {
        if (entry.watched() && entry.knowledge() == ResourceEntry.Knowledge.NOTHING && entry.servers() == chain) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A stream is up (a ready delta stream, which may get no response): no failure to report for the
   * chains it serves ({@code via}, see {@link #wireNames(String, Object)}).
   */
  public void onStreamConnected(Object via) {
    syncContext.throwIfNotInThisSynchronizationContext();
    streamWorks(via);
  }

  private void streamWorks(Object via) {
    if (!failures.isEmpty()) {
      if (via == null) {
        failures.clear();
      } else {
        failures.keySet().removeIf(chain -> chain.carries(via));
      }
    }
  }

  /**
   * The stream serving {@code chain} (to {@code server}, its target) failed before any response: its watchers
   * without a value or an absence hear the error; the others keep what they have and hear nothing.
   * Its watchers added before the next response hear it too.
   */
  public void onStreamFailure(Servers chain, String server, String what, Status cause) {
    syncContext.throwIfNotInThisSynchronizationContext();
    String detail = what + ": " + cause.getCode() + (cause.getDescription() == null ? "" : ": " + cause
        .getDescription());
    ConnectionFailure failure = new ConnectionFailure(detail, cause.getCause(), server);
    if (!failingFrom(server)) {
      listener.serverFailed(server); // gRFC A78: once per server, however many chains (authorities) hear it
    }
    failures.put(chain, failure);
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries()) {
        if (entry.watched() && entry.value() == null && !entry.absent() && entry.servers() == chain) {
          delivery.tellError(entry, streamFailed(entry, failure), null);
        }
      }
    }
    delivery.dispatch();
  }

  private boolean failingFrom(String server) {
    for (ConnectionFailure f : failures.values()) {
      if (f.server().equals(server)) {
        return true;
      }
    }
    return false;
  }

  private Status streamFailed(ResourceEntry<?> entry, ConnectionFailure failure) {
    Status error = delivery.errorStatus(entry, failure.detail()).withCause(failure.cause());
    entry.streamFailed(failure.detail(), error);
    return error;
  }

  /**
   * Applies a state-of-the-world response. Returns null when no name of its type is on the wire
   * (ignored, not ACKed), else the ACK/NACK decision, which {@code beforeCallbacks} also gets once
   * the response is applied and before any watcher callback is handed out (so the ACK or NACK need
   * not wait for callbacks that run inline).
   *
   * @param server the server that sent it
   * @param tracker counts the watcher callbacks this response causes
   * @param firstOfTypeOnStream the stream's first response of this type: an absence in it deletes
   *     no cached value yet (a control plane that just restarted may answer before it has its
   *     whole state)
   * @param answeredMark the response answers a request that named every watched name whose
   *     {@link #wireMark} is at most this; -1 when it may answer none (a new version pushed before
   *     the server saw the request): a name with nothing cached that such an answer lacks does not
   *     exist
   * @param via the responding stream's controller when streams carry different names (see {@link
   *     #wireNames(String, Object)}), else null: absence concerns only the names it carries
   */
  public ResponseOutcome handleResponse(
      DiscoveryResponse response,
      ServerId server,
      CallbackTracker tracker,
      boolean firstOfTypeOnStream,
      long answeredMark,
      Object via,
      Consumer<ResponseOutcome> beforeCallbacks) {
    syncContext.throwIfNotInThisSynchronizationContext();
    streamWorks(via);
    TypeCache<?> t = types.get(response.getTypeUrl());
    if (t == null || !t.hasWireNames() || shutdown || via != null && !t.hasWireNames(via)) {
      return null;
    }
    ResponseOutcome outcome =
        applyStateOfTheWorld(t, response, server, tracker, firstOfTypeOnStream, answeredMark, via);
    beforeCallbacks.accept(outcome);
    delivery.dispatch();
    return outcome;
  }

  private <T> ResponseOutcome applyStateOfTheWorld(TypeCache<T> t, DiscoveryResponse response, ServerId server,
      CallbackTracker tracker, boolean firstOfTypeOnStream, long answeredMark, Object via) {
    t.countResponse();
    String version = response.getVersionInfo();
    AppliedResponse applied = new AppliedResponse(++responseSequence, clock.instant(), tracker, null, delivery, via);
    List<Any> resources = response.getResourcesList();
    for (int i = 0; i < resources.size(); i++) {
      applied.apply(t, resources.get(i), i, version);
    }
    listener.resourcesValidated(server.target(), t.type.typeUrl(), applied.valid(), applied.errorCount());
    if (t.type.absenceMeansDeletion()) {
      absence.afterStateOfTheWorld(t, applied, version, firstOfTypeOnStream, answeredMark, tracker, via);
    }
    return applied.outcome(t, version);
  }

  /**
   * Applies a delta response ({@code DeltaAggregatedResources}) that came on {@code stream}: each
   * resource carries its own version; a name left out is unchanged; {@code removed_resources}
   * deletes, for every type. Returns null when nothing of its type is watched (nothing applied; a
   * delta response is ACKed anyway), else the ACK/NACK decision, which {@code beforeCallbacks}
   * also gets before any watcher callback is handed out.
   */
  public ResponseOutcome handleDeltaResponse(
      DeltaDiscoveryResponse response,
      StreamId stream,
      Object via,
      CallbackTracker tracker,
      Consumer<ResponseOutcome> beforeCallbacks) {
    syncContext.throwIfNotInThisSynchronizationContext();
    streamWorks(via);
    TypeCache<?> t = types.get(response.getTypeUrl());
    if (t == null || shutdown) {
      return null;
    }
    AppliedResponse applied = delta.apply(t, response, stream, via, tracker);
    listener.resourcesValidated(stream.server().target(), t.type.typeUrl(), applied.valid(), applied.errorCount());
    ResponseOutcome outcome = applied.outcome(t, response.getSystemVersionInfo());
    beforeCallbacks.accept(outcome);
    delivery.dispatch();
    return outcome;
  }

  /**
   * Every watched resource's status, by type URL then name, as an immutable list (retained and
   * held names are not listed). A type whose resources did not change reuses its last list, so
   * an EDS update does not rebuild the status of ten thousand clusters.
   */
  public List<ResourceStatus> statuses() {
    syncContext.throwIfNotInThisSynchronizationContext();
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
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    delivery.shutdown();
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries()) {
        entry.close();
      }
    }
    types.clear();
  }

  @SuppressWarnings("unchecked")
  private <T> TypeCache<T> typeCache(ResourceType<T> type) {
    TypeCache<?> existing = types.get(type.typeUrl());
    if (existing == null) {
      TypeCache<T> created = new TypeCache<>(type, syncContext, scheduler);
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
