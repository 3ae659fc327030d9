package io.jxds.client.internal.cache;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import io.jxds.client.internal.DurationFormat;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every resource of one client, by type and name, with its watchers, cached value, version, state
 * and timers. All methods run on the client's {@link SynchronizationContext}.
 *
 * <p>Rules implemented here:
 * <ul>
 *   <li>gRFC A46: resources nobody subscribed are skipped without validation; a valid resource in
 *       a NACKed response still applies; an {@code Any} that cannot be decoded is an error naming
 *       its index.
 *   <li>Watchers hear only real changes ({@code equals} on the model value); the version and the
 *       update time advance anyway.
 *   <li>State-of-the-world types ({@link ResourceType#absenceMeansDeletion()}): a name with
 *       nothing cached that is missing from the response answering the request naming it does
 *       not exist (which response answers which request: AnsweredRequest, in the stream
 *       package). A name with a value missing from a response was deleted, unless its
 *       does-not-exist timer is still pending (too early to tell), the server has {@code
 *       ignore_resource_deletion} (gRFC A53: keep it, warn once), the response holds an {@code
 *       Any} whose name cannot be read (it may be the missing one), or it is the stream's first
 *       response of the type (a restarted control plane may not have its whole state yet). In
 *       that last case the deletion is postponed, not dropped: it is concluded once the name has
 *       been missing for the resource timeout, counted from when it was first seen missing
 *       (across streams), by a timer or by the next response that still lacks it.
 *   <li>Does-not-exist timer: armed by {@link #startTimers} once the request is on a ready stream,
 *       for subscribed names still waiting for an answer since they were (re)subscribed; stopped
 *       by data, a NACK, an absence, the last cancel or a stream close (gRFC A57).
 *   <li>On the wire is what is watched: a name whose last watcher leaves is left out of the next
 *       request of its type at once. Its cached value is retained (off the wire, out of {@code
 *       status()}, untouched by responses and timers) for the cache retention time: a watcher
 *       that comes back within it gets the value at once, even with the control plane away, and
 *       the name is requested again.
 *   <li>Except for the last names of a type: no request says "nothing" to every server (see
 *       AdsStreamController), so none is sent and the last one stands. Its names are held: the
 *       server still answers for them, so responses keep applying to them and are ACKed with
 *       them, and a watcher coming back finds data as current as the server believes it is (a
 *       server that never saw the name leave would not send it again). The hold ends when a name
 *       of the type is watched (the next request replaces the standing one) or the stream ends;
 *       held names then become retained or are forgotten.
 *   <li>Delta responses ({@link #handleDeltaResponse}): a name left out is unchanged, {@code
 *       removed_resources} deletes (a retained value too), each resource has its own version, and
 *       nothing is held (the stream unsubscribes names explicitly). Resources a wildcard server
 *       sends for names nobody watches are kept undecoded and applied when the name is watched. A
 *       value is current while the stream that sent it, or was told of it in {@code
 *       initial_resource_versions}, lives ({@link #deltaStreamEnded}); a retained value watched
 *       again after that must be sent again within the resource timeout, or it does not exist.
 *   <li>A watcher of a name without data added while the ADS stream is failing hears the
 *       stream's error at once, not only at the next failed attempt (up to 120 s later).
 * </ul>
 */
public final class ResourceCache {
  private static final Logger log = LoggerFactory.getLogger(ResourceCache.class);

  /** The servers that carry the cache's requests: the client's {@code ServerChain}. */
  public interface Servers {
    /** A name of a type was subscribed or unsubscribed: send a request. */
    void subscriptionsChanged(String typeUrl, String name);

    /**
     * Whether the stream speaks state of the world, where the last names of a type are held (see
     * the class comment) and a missing name can mean a deletion; delta xDS unsubscribes names
     * explicitly and deletes with {@code removed_resources}.
     */
    boolean stateOfTheWorld();

    /** Whether requests written now reach a ready stream (so a timer may start). */
    boolean streamReady();
  }

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
     * resource_updates_valid} and {@code _invalid}); an {@code Any} that cannot be read counts as
     * invalid.
     */
    default void resourcesValidated(String typeUrl, int valid, int invalid) {}

    /** gRFC A78's {@code server_failure}: the stream went from working to failing. */
    default void serverFailed() {}
  }

  /** A watcher callback produced by the operation in progress, handed out by {@link #dispatch()}. */
  private record Pending<T>(WatcherRegistration<T> registration, Consumer<ResourceWatcher<T>> action,
      CallbackTracker tracker) {
    void deliver() {
      registration.deliver(action, tracker);
    }
  }

  /** The error of the last ADS stream that failed before any response, with its cause. */
  private record ConnectionFailure(String detail, Throwable cause) {}

  private final String nodeId;
  private final Duration resourceTimeout;
  private final Duration cacheRetention;
  private final boolean ignoreResourceDeletion;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final Clock clock;
  private final LongSupplier nanoTicker;
  private final Servers servers;
  private final Listener listener;
  private final Map<String, TypeCache<?>> types = new TreeMap<>();
  private long responseSequence;
  /** Callbacks of the operation in progress; see {@link #dispatch()}. */
  private List<Pending<?>> pending = new ArrayList<>();
  /** Callbacks of the turn's operations, handed out at its end; see {@link #handOut()}. */
  private List<Pending<?>> handOut = new ArrayList<>();
  private boolean handOutQueued;
  /** Set while the ADS stream is failing: from a stream failure to the next response. */
  private ConnectionFailure connectionFailure;
  private boolean shutdown;

  /**
   * @param cacheRetention how long the value of a resource nobody watches stays cached (off the
   *     wire); zero forgets it at once
   * @param clock stamps update times
   * @param nanoTicker monotonic time, in nanoseconds, for how long a resource has been missing
   */
  public ResourceCache(
      String nodeId,
      Duration resourceTimeout,
      Duration cacheRetention,
      boolean ignoreResourceDeletion,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      Clock clock,
      LongSupplier nanoTicker,
      Servers servers,
      Listener listener) {
    this.nodeId = nodeId;
    this.resourceTimeout = resourceTimeout;
    this.cacheRetention = cacheRetention;
    this.ignoreResourceDeletion = ignoreResourceDeletion;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.clock = clock;
    this.nanoTicker = nanoTicker;
    this.servers = servers;
    this.listener = listener;
  }

  /** Adds a watcher; a cached value, absence or error reaches it at once, on its executor. */
  public <T> void addWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    if (shutdown || registration.isCancelled()) {
      return;
    }
    TypeCache<T> typeCache = typeCache(type);
    ResourceEntry<T> entry = typeCache.entries.get(name);
    boolean nameAdded = entry == null || !entry.subscribed();
    if (entry == null) {
      entry = new ResourceEntry<>(typeCache, name);
      typeCache.add(entry);
    } else if (typeCache.isHeld(name)) {
      entry.cancelRetentionTimer(); // never left the wire: its state is current
      typeCache.subscribe(entry);
    } else if (!entry.subscribed()) {
      // Delta versions are per resource: the retained value is at the version the client ACKed,
      // and a live stream that sent it need not send it again (java-control-plane does not). A
      // value whose stream has ended must be sent again by the server now serving, which was not
      // told the client holds it: until then it is only REQUESTED (see onDoesNotExistTimer).
      entry.resubscribe(servers.stateOfTheWorld() ? typeCache.acceptedVersion()
          : entry.vouched() ? entry.version() : "");
      typeCache.subscribe(entry);
      log.debug("{} resource \"{}\" watched again; serving its retained value", type.shortName(), name);
    }
    if (nameAdded) {
      entry.subscribedAt(typeCache.nextSubscriptionMark());
    }
    entry.watchers.add(registration);
    int queued = pending.size();
    TypeCache.Kept kept = typeCache.takeUnwatched(name);
    boolean told = false;
    if (kept != null) {
      // Sent earlier by a delta server that will not send it again (see applyDelta).
      Applying applying = new Applying(++responseSequence, clock.instant(), null, kept.stream());
      applyResource(typeCache, kept.resource().getResource(), 0, kept.resource().getVersion(), applying);
      // A valid kept value that changed reached the watcher as an update. A rejected one reached
      // it as an error only: the last good value, told below, goes ahead of that error.
      told = applying.valid > 0 && pending.size() > queued;
    }
    boolean errorQueued = !told && pending.size() > queued;
    if (typeCache.holding()) {
      releaseHold(typeCache); // the request this watch sends replaces the standing one
    }
    if (entry.value() == null
        && !entry.absent()
        && entry.lastErrorStatus() == null
        && connectionFailure != null) {
      // The stream is failing: the next attempt may be minutes away, and the watcher's channel
      // should fail fast with the reason rather than hang until then (told just below).
      recordStreamFailure(entry, connectionFailure);
    }
    Consumer<ResourceWatcher<T>> state = null;
    if (told) {
      // nothing more to say
    } else if (entry.value() != null) {
      T value = entry.value();
      state = w -> w.onUpdate(value);
    } else if (entry.absent()) {
      String n = entry.name;
      state = w -> w.onResourceDoesNotExist(n);
    } else if (entry.lastErrorStatus() != null && !errorQueued) {
      Status error = entry.lastErrorStatus();
      state = w -> w.onError(error);
    }
    if (state != null) {
      pending.add(queued, new Pending<>(registration, state, null)); // ahead of a kept value's rejection
    }
    if (nameAdded) {
      servers.subscriptionsChanged(type.typeUrl(), name);
    } else if (servers.streamReady()) {
      startTimer(entry);
    }
    dispatch();
  }

  /**
   * Removes a watcher. The last one leaving takes the name out of the next request of its type,
   * or holds it if it was the type's last name, and keeps its value, if any, for the cache
   * retention time.
   */
  public <T> void removeWatcher(ResourceType<T> type, String name, WatcherRegistration<T> registration) {
    TypeCache<?> typeCache = types.get(type.typeUrl());
    if (shutdown || typeCache == null) {
      return;
    }
    ResourceEntry<?> entry = typeCache.entries.get(name);
    if (entry == null || !entry.watchers.remove(registration) || entry.subscribed()) {
      return;
    }
    entry.unsubscribe();
    typeCache.unsubscribe(entry);
    if (entry.clearIgnoredDeletion()) {
      log.info("{} resource \"{}\" whose deletion was ignored is no longer watched", entry.type.shortName(),
          entry.name);
    }
    boolean held = !typeCache.hasSubscriptions() && servers.stateOfTheWorld();
    if (held) {
      // The last name of its type: no request is sent, so the one naming it stands.
      typeCache.hold(List.of(entry.name));
    }
    // A known absence is retained like a value: a channel that wakes on a deleted cluster should
    // fail at once with "does not exist", not wait out the resource timeout again.
    if (entry.known() && !cacheRetention.isZero()) {
      ResourceEntry<?> retained = entry;
      entry.retentionStarted(
          syncContext.schedule(
              () -> {
                retained.retentionTimerFired();
                if (!retained.onWire()) {
                  typeCache.remove(retained);
                  log.debug("{} resource \"{}\" dropped from the cache", retained.type.shortName(), retained.name);
                }
              },
              cacheRetention.toNanos(),
              TimeUnit.NANOSECONDS,
              scheduler));
      log.debug("{} resource \"{}\" unwatched; its value stays cached for {}", entry.type.shortName(), entry.name,
          DurationFormat.format(cacheRetention));
    } else if (!held) {
      typeCache.remove(entry);
      log.debug("{} resource \"{}\" unwatched", entry.type.shortName(), entry.name);
    }
    servers.subscriptionsChanged(typeCache.type.typeUrl(), name);
    listener.stateChanged();
  }

  /**
   * The standing request of a type is replaced or gone: its held names leave the wire. Those
   * with a value or a known absence still within the cache retention time stay retained; the rest
   * are forgotten.
   */
  private void releaseHold(TypeCache<?> typeCache) {
    for (String name : typeCache.releaseHold()) {
      ResourceEntry<?> entry = typeCache.entries.get(name);
      if (entry != null && !entry.subscribed()) {
        entry.unsubscribe();
        if (!entry.known() || !entry.retained()) {
          // Forgotten: a retention timer it had (a NACK may have ended what it retained) must not
          // later remove a new entry of the same name.
          entry.cancelRetentionTimer();
          typeCache.remove(entry);
        }
      }
    }
  }

  /** Type URLs with at least one watched name, in order. */
  public List<String> subscribedTypeUrls() {
    List<String> out = new ArrayList<>(types.size());
    for (TypeCache<?> t : types.values()) {
      if (t.hasSubscriptions()) {
        out.add(t.type.typeUrl());
      }
    }
    return out;
  }

  /**
   * The names of a type on the wire, sorted (a request's or an ACK's {@code resource_names}): the
   * watched ones, or while none is watched the held ones. A live read-only view.
   */
  public List<String> subscribedNames(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    return t == null ? List.of() : t.wireNames();
  }

  /**
   * Whether any name of this type is watched. When none is, no request for the type is sent: an
   * empty {@code resource_names} does not mean "nothing" to every server (see the class comment).
   */
  public boolean isSubscribed(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    return t != null && t.hasSubscriptions();
  }

  /** Whether {@code name} of this type has a watcher (delta: whether the server should track it). */
  public boolean isWatched(String typeUrl, String name) {
    TypeCache<?> t = types.get(typeUrl);
    ResourceEntry<?> entry = t == null ? null : t.entries.get(name);
    return entry != null && entry.subscribed();
  }

  /**
   * The version of every watched name of this type whose cached value came from {@code source}:
   * a new delta stream's {@code initial_resource_versions} (a version from another server means
   * nothing to this one). Told so, {@code stream} would send a change or removal of each: it
   * vouches for them.
   */
  public Map<String, String> cachedVersions(String typeUrl, StreamId stream) {
    TypeCache<?> t = types.get(typeUrl);
    Map<String, String> out = new HashMap<>();
    if (t != null) {
      for (String name : t.subscribedNames()) {
        ResourceEntry<?> entry = t.entries.get(name);
        if (entry.value() != null && !entry.version().isEmpty() && stream.server().equals(entry.source())) {
          out.put(name, entry.version());
          entry.vouchedBy(stream);
        }
      }
    }
    if (!out.isEmpty()) {
      listener.stateChanged(); // a value watched again may be ACKED now
    }
    return out;
  }

  /**
   * A delta stream ended. What it sent for names nobody watches is dropped, and the values it
   * vouched for are no longer known to be current: the next stream's {@code
   * initial_resource_versions} names only watched values, so its server would not send the
   * removal of the others (a retained value watched again must then be sent again).
   */
  public void deltaStreamEnded(StreamId stream) {
    for (TypeCache<?> t : types.values()) {
      t.dropUnwatchedFrom(stream);
      for (ResourceEntry<?> entry : t.entries.values()) {
        entry.streamEnded(stream);
      }
    }
  }

  /**
   * The latest mark of a name of this type going on the wire: a request written now names every
   * watched name whose mark is at most this (see {@link #handleResponse}'s {@code answeredMark}).
   */
  public long subscriptionMark(String typeUrl) {
    TypeCache<?> t = types.get(typeUrl);
    return t == null ? 0 : t.subscriptionMark();
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
    // Only names still waiting for an answer: a NACKed name got one (its error), and subscribing
    // another name of the type must not later tell its watchers it does not exist.
    if (!entry.awaitingAnswer() || entry.hasDoesNotExistTimer() || !entry.subscribed()) {
      return;
    }
    entry.doesNotExistTimerStarted(
        syncContext.schedule(
            () -> onDoesNotExistTimer(entry), resourceTimeout.toNanos(), TimeUnit.NANOSECONDS, scheduler));
  }

  private <T> void onDoesNotExistTimer(ResourceEntry<T> entry) {
    entry.doesNotExistTimerFired();
    if (!entry.awaitingAnswer()) {
      return;
    }
    if (entry.known()) {
      entry.confirmationWindowClosed();
      // Watched again with a retained value (or a known absence) that no response has confirmed
      // yet: the window in which a response may predate the request is over. A server answers a
      // request that adds a name, so responses of the type that came in the window and all
      // lacked it mean it was deleted while nobody watched it; no response at all means the
      // server believes the client holds it (java-control-plane), and the value stays. From now
      // on a state-of-the-world response that lacks the name counts as its deletion.
      if (entry.value() != null
          && entry.type.absenceMeansDeletion()
          && servers.stateOfTheWorld()
          && entry.responseSinceTimerArmed()) {
        onDeleted(entry, null);
        dispatch();
        return;
      }
      // Delta: a value whose stream has ended was requested again from a server that was not
      // told the client holds it; a server that has it sends it. (A live stream that vouches for
      // it would have sent its change or removal: silence there means unchanged.)
      if (entry.value() != null && !servers.stateOfTheWorld() && !entry.vouched()) {
        String why = "not sent again within " + DurationFormat.format(resourceTimeout)
            + " of being requested on a new stream";
        log.info("{} resource \"{}\" no longer exists: {}", entry.type.shortName(), entry.name, why);
        markAbsent(entry, why, null);
        dispatch();
        return;
      }
      log.debug("{} resource \"{}\" not confirmed within {}; keeping its cached value", entry.type.shortName(),
          entry.name, DurationFormat.format(resourceTimeout));
      return;
    }
    String why = "not received within " + DurationFormat.format(resourceTimeout);
    if (!entry.responseSinceTimerArmed()) {
      why += ": no " + entry.type.shortName() + " response at all since it was requested (some control planes,"
          + " java-control-plane in ADS mode among them, hold back a type's whole response while any"
          + " requested name is missing)";
    }
    log.info("{} resource \"{}\" does not exist: {}", entry.type.shortName(), entry.name, why);
    markAbsent(entry, why, null);
    dispatch();
  }

  /**
   * The stream closed: no timer may run while nothing can answer (gRFC A57). A postponed
   * deletion keeps the time its name was first seen missing, for the next stream to go on from.
   * Held names leave the wire with the stream.
   */
  public void stopAllTimers() {
    for (TypeCache<?> t : types.values()) {
      releaseHold(t); // a new stream requests only watched names
      for (ResourceEntry<?> entry : t.entries.values()) {
        entry.cancelDoesNotExistTimer();
        entry.cancelDeletionTimer();
      }
    }
  }

  /**
   * Whether some watched resource has nothing cached: no value, no known absence and no NACK
   * (gRFC A71: what makes the client fall back to the next server).
   */
  public boolean hasUncachedWatched() {
    for (TypeCache<?> t : types.values()) {
      for (String name : t.subscribedNames()) {
        ResourceEntry<?> entry = t.entries.get(name);
        if (!entry.known() && entry.state() != ResourceState.NACKED) {
          return true;
        }
      }
    }
    return false;
  }

  /** A stream is up (a ready delta stream, which may get no response): no failure to report. */
  public void onStreamConnected() {
    connectionFailure = null;
  }

  /**
   * A stream failed before any response: watchers without a result hear the error; watchers with
   * data keep it and hear nothing. Watchers added before the next response hear it too.
   */
  public void onStreamFailure(String what, Status cause) {
    String detail = what + ": " + cause.getCode() + (cause.getDescription() == null ? "" : ": " + cause
        .getDescription());
    if (connectionFailure == null) {
      listener.serverFailed();
    }
    connectionFailure = new ConnectionFailure(detail, cause.getCause());
    for (TypeCache<?> t : types.values()) {
      for (ResourceEntry<?> entry : t.entries.values()) {
        if (entry.subscribed() && entry.value() == null && !entry.absent()) {
          notifyError(entry, recordStreamFailure(entry, connectionFailure), null);
        }
      }
    }
    dispatch();
  }

  private Status recordStreamFailure(ResourceEntry<?> entry, ConnectionFailure failure) {
    Status error = errorStatus(entry, failure.detail()).withCause(failure.cause());
    entry.streamFailure(failure.detail(), error);
    return error;
  }

  /**
   * Applies a response. Returns null when no name of its type is on the wire (ignored, not
   * ACKed), else the ACK/NACK decision, which {@code beforeCallbacks} also gets once the response
   * is applied and before any watcher callback is handed out (so the ACK or NACK need not wait
   * for callbacks that run inline).
   *
   * @param tracker counts the watcher callbacks this response causes
   * @param firstOfTypeOnStream the stream's first response of this type: a state-of-the-world
   *     absence in it deletes no cached value yet (a control plane that just restarted may answer
   *     before it has its whole state)
   * @param answeredMark the response answers a request that named every watched name whose
   *     {@link #subscriptionMark} is at most this; -1 when it may answer none (a new version
   *     pushed before the server saw the request): a name with nothing cached that such an answer
   *     lacks does not exist
   */
  public ResponseOutcome handleResponse(
      DiscoveryResponse response,
      CallbackTracker tracker,
      boolean firstOfTypeOnStream,
      long answeredMark,
      Consumer<ResponseOutcome> beforeCallbacks) {
    connectionFailure = null; // the stream works
    TypeCache<?> t = types.get(response.getTypeUrl());
    if (t == null || t.wireNames().isEmpty() || shutdown) {
      return null;
    }
    ResponseOutcome outcome = apply(t, response, tracker, firstOfTypeOnStream, answeredMark);
    beforeCallbacks.accept(outcome);
    dispatch();
    return outcome;
  }

  private <T> ResponseOutcome apply(TypeCache<T> t, DiscoveryResponse response, CallbackTracker tracker,
      boolean firstOfTypeOnStream, long answeredMark) {
    long sequence = ++responseSequence;
    t.countResponse();
    String version = response.getVersionInfo();
    Applying applying = new Applying(sequence, clock.instant(), tracker, null);
    List<Any> resources = response.getResourcesList();
    for (int i = 0; i < resources.size(); i++) {
      applyResource(t, resources.get(i), i, version, applying);
    }
    listener.resourcesValidated(t.type.typeUrl(), applying.valid, applying.errorCount());
    if (t.type.absenceMeansDeletion()) {
      for (ResourceEntry<T> entry : t.entries.values()) {
        if (!entry.onWire()) {
          continue; // retained off the wire: the response does not cover it
        }
        if (entry.wasSeenIn(sequence)) {
          entry.clearMissing(); // it is back: a postponed deletion is off
        } else if (applying.unnamedFailure) {
          continue; // the unreadable resource may be this one
        } else if (entry.value() == null && !entry.absent() && entry.subscribed()
            && entry.subscribedMark() <= answeredMark) {
          // Nothing cached, and this is the answer to a request naming it: it does not exist now
          // (waiting out the timer, or the postponement of a first response, protects only values
          // the client already had).
          String why = "not in the control plane's answer to the request naming it (version \"" + version + "\")";
          log.info("{} resource \"{}\" does not exist: {}", entry.type.shortName(), entry.name, why);
          markAbsent(entry, why, tracker);
        } else if (entry.hasDoesNotExistTimer() || entry.awaitingAnswer()) {
          // Absence proves nothing yet; a postponed deletion keeps waiting. A name awaiting its
          // answer is either on the wire with its does-not-exist timer running (the response may
          // answer an earlier request, or be a push the server sent before it saw the request) or
          // not sent at all: subscriptions wait for the end of the turn, and a response handled
          // before then answers a request that did not name it.
          continue;
        } else if (firstOfTypeOnStream) {
          postponeDeletion(entry, tracker);
        } else {
          onDeleted(entry, tracker);
        }
      }
    }
    return applying.outcome(t, version);
  }

  /**
   * Applies a delta response ({@code DeltaAggregatedResources}): each resource carries its own
   * version; a name left out is unchanged; {@code removed_resources} deletes, for every type.
   * Returns null when nothing of its type is watched (nothing applied; a delta response is ACKed
   * anyway), else the ACK/NACK decision, which {@code beforeCallbacks} also gets before any
   * watcher callback is handed out.
   */
  public ResponseOutcome handleDeltaResponse(
      DeltaDiscoveryResponse response,
      StreamId stream,
      CallbackTracker tracker,
      Consumer<ResponseOutcome> beforeCallbacks) {
    connectionFailure = null; // the stream works
    TypeCache<?> t = types.get(response.getTypeUrl());
    if (t == null || shutdown) {
      return null;
    }
    ResponseOutcome outcome = applyDelta(t, response, stream, tracker);
    beforeCallbacks.accept(outcome);
    dispatch();
    return outcome;
  }

  private <T> ResponseOutcome applyDelta(
      TypeCache<T> t, DeltaDiscoveryResponse response, StreamId stream, CallbackTracker tracker) {
    t.countResponse();
    Applying applying = new Applying(++responseSequence, clock.instant(), tracker, stream);
    List<Resource> resources = response.getResourcesList();
    for (int i = 0; i < resources.size(); i++) {
      Resource resource = resources.get(i);
      if (!resource.hasResource()) {
        continue; // a TTL refresh (Resource.ttl): nothing changed
      }
      if (!resource.getName().isEmpty() && onWire(t, resource.getName()) == null) {
        // gRFC A46: not validated. But a server that treats the type as a wildcard (Cluster and
        // Listener in java-control-plane's delta ADS) now believes the client holds it and will
        // not send it again when the name is subscribed: keep the bytes for that watch.
        t.keepUnwatched(resource, stream);
        continue;
      }
      applyResource(t, resource.getResource(), i, resource.getVersion(), applying);
    }
    for (String name : response.getRemovedResourcesList()) {
      t.dropUnwatched(name);
      // A deletion whether or not the name is watched now: a wildcard server tells a client that
      // holds a value unwatched, and will say nothing more when the name is watched again.
      ResourceEntry<T> entry = t.entries.get(name);
      if (entry != null) {
        onDeleted(entry, tracker);
      }
    }
    listener.resourcesValidated(t.type.typeUrl(), applying.valid, applying.errorCount());
    return applying.outcome(t, response.getSystemVersionInfo());
  }

  /** What applying one response has found so far. */
  private static final class Applying {
    final long sequence;
    final Instant now;
    final CallbackTracker tracker;
    /** The stream the response came on (delta), or null. */
    final StreamId stream;
    List<String> errors;
    /** Resources validated and cached (A78's resource_updates_valid). */
    int valid;
    /** An Any whose name cannot be read may hold any subscribed name: absences prove nothing then. */
    boolean unnamedFailure;

    Applying(long sequence, Instant now, CallbackTracker tracker, StreamId stream) {
      this.sequence = sequence;
      this.now = now;
      this.tracker = tracker;
      this.stream = stream;
    }

    void error(String error) {
      errors = add(errors, error);
    }

    int errorCount() {
      return errors == null ? 0 : errors.size();
    }

    /** ACK, recording {@code version} as the type's accepted one, or NACK naming every error. */
    ResponseOutcome outcome(TypeCache<?> t, String version) {
      if (errors == null) {
        t.accepted(version);
        return ResponseOutcome.ACCEPTED;
      }
      return new ResponseOutcome(errors);
    }
  }

  /** Unpacks, validates and caches one resource of a response (gRFC A46: only watched names). */
  private <T> void applyResource(TypeCache<T> t, Any any, int index, String version, Applying applying) {
    UnpackedResource<T> unpacked;
    try {
      unpacked = ResourceDecoding.unpack(t.type, any);
    } catch (XdsResourceException e) {
      applying.error(t.type.shortName() + " resource index " + index + ": " + e.getMessage());
      ResourceEntry<T> entry = e.resourceName() == null ? null : onWire(t, e.resourceName());
      if (entry != null) {
        entry.seenIn(applying.sequence);
        reject(entry, version, applying.now, e.getMessage(), applying.tracker);
      } else if (e.resourceName() == null) {
        applying.unnamedFailure = true;
      }
      return;
    } catch (RuntimeException e) {
      applying.error(t.type.shortName() + " resource index " + index + ": cannot decode: " + e);
      applying.unnamedFailure = true;
      return;
    }
    ResourceEntry<T> entry = onWire(t, unpacked.name());
    if (entry == null) {
      return; // gRFC A46: nobody subscribed, so it is neither validated nor cached
    }
    entry.seenIn(applying.sequence);
    T value;
    try {
      value = unpacked.decode();
    } catch (XdsResourceException e) {
      applying.error(e.getMessage());
      reject(entry, version, applying.now, e.getMessage(), applying.tracker);
      return;
    } catch (RuntimeException e) {
      String message = t.type.shortName() + " resource \"" + entry.name + "\": unexpected error: " + e;
      applying.error(message);
      reject(entry, version, applying.now, message, applying.tracker);
      return;
    }
    accept(entry, value, version, any, applying);
    applying.valid++;
  }

  private static <T> ResourceEntry<T> onWire(TypeCache<T> t, String name) {
    ResourceEntry<T> entry = t.entries.get(name);
    return entry != null && entry.onWire() ? entry : null;
  }

  private static List<String> add(List<String> errors, String error) {
    List<String> out = errors == null ? new ArrayList<>() : errors;
    out.add(error);
    return out;
  }

  private <T> void accept(ResourceEntry<T> entry, T value, String version, Any raw, Applying applying) {
    CallbackTracker tracker = applying.tracker;
    boolean first = entry.value() == null;
    boolean changed = entry.accept(value, version, applying.now, applying.stream, raw);
    if (entry.clearIgnoredDeletion()) {
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

  private <T> void reject(
      ResourceEntry<T> entry, String version, Instant now, String message, CallbackTracker tracker) {
    // Per resource, not the whole response's text (grpc-java keeps the whole text on each).
    String error = "version \"" + version + "\" rejected: " + message;
    Status status = errorStatus(entry, "INVALID_ARGUMENT: " + error);
    entry.reject(error, status, version, now);
    notifyError(entry, status, tracker);
  }

  /**
   * A cached name missing from a stream's first response: a control plane that just restarted may
   * answer before it has its whole state, so the deletion waits. It is concluded once the name
   * has been missing for the resource timeout, counted from the first response that lacked it, on
   * whichever stream: by this response if that time is already up (streams recycled faster than
   * the timeout must not keep a deleted cluster forever), else by a timer for the time left or
   * the next non-first response that still lacks it.
   */
  private <T> void postponeDeletion(ResourceEntry<T> entry, CallbackTracker tracker) {
    if (entry.value() == null) {
      return; // nothing cached to delete; the next response decides
    }
    long now = nanoTicker.getAsLong();
    entry.markMissing(now);
    long left = resourceTimeout.toNanos() - (now - entry.missingSinceNanos());
    if (left <= 0) {
      log.debug(
          "{} resource \"{}\" missing for the resource timeout across streams; concluding its deletion",
          entry.type.shortName(),
          entry.name);
      onDeleted(entry, tracker);
      return;
    }
    if (entry.hasDeletionTimer()) {
      return;
    }
    log.debug(
        "{} resource \"{}\" missing from the first response on a new stream; deletion postponed",
        entry.type.shortName(),
        entry.name);
    entry.deletionTimerStarted(
        syncContext.schedule(
            () -> {
              entry.deletionTimerFired();
              if (entry.missing() && entry.onWire()) {
                onDeleted(entry, null);
                dispatch();
              }
            },
            left,
            TimeUnit.NANOSECONDS,
            scheduler));
  }

  private <T> void onDeleted(ResourceEntry<T> entry, CallbackTracker tracker) {
    entry.clearMissing();
    if (entry.absent()) {
      return;
    }
    if (entry.value() != null && ignoreResourceDeletion) {
      if (entry.ignoreDeletion()) {
        log.warn(
            "{} resource \"{}\" left out of a response; keeping it because the server has ignore_resource_deletion",
            entry.type.shortName(),
            entry.name);
      }
      return;
    }
    if (entry.value() != null) {
      log.info("{} resource \"{}\" deleted by the control plane", entry.type.shortName(), entry.name);
    }
    markAbsent(entry, "deleted by the control plane", tracker);
  }

  private <T> void markAbsent(ResourceEntry<T> entry, String why, CallbackTracker tracker) {
    entry.markAbsent(why);
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
   * #dispatch()} queues it for hand-out; until then the response handler's own count holds the
   * tracker.
   */
  private <T> void deliver(WatcherRegistration<T> w, Consumer<ResourceWatcher<T>> action, CallbackTracker tracker) {
    pending.add(new Pending<>(w, action, tracker));
  }

  /**
   * Ends an operation (a response, a timer, a stream failure, a new watcher): its callbacks are
   * handed out at the end of the context's turn, after a status rebuild, so a callback that reads
   * {@code status()} sees the change it is told about; without callbacks the rebuild is coalesced.
   */
  private void dispatch() {
    if (pending.isEmpty()) {
      listener.stateChanged();
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
      listener.publishStatusNow();
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

  /** gRFC A54 and ARCHITECTURE.md: always UNAVAILABLE, naming the cause, the resource and the node. */
  private Status errorStatus(ResourceEntry<?> entry, String detail) {
    return Status.UNAVAILABLE.withDescription(
        detail + " [" + entry.type.shortName() + " resource \"" + entry.name + "\", node id \"" + nodeId + "\"]");
  }

  /**
   * Every subscribed resource's status, by type URL then name, as an immutable list (retained,
   * unwatched values are not listed: they are not subscribed). A type whose
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
        entry.cancelTimers();
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
