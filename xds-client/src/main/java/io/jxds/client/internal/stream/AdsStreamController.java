package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ServerId;
import io.jxds.client.internal.cache.StreamId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the client's ADS stream to one server: opens it lazily when a first name goes on the wire,
 * has the stream send a request per type once the transport is ready and a batch of wire changes
 * at the end of each turn of the client's context, asks for the next response only when the last
 * one's callbacks have run, and reconnects. Every public method runs on the client's {@link
 * SynchronizationContext}, and checks that it does.
 *
 * <p>Two wire protocols share this lifecycle, each with its own stream class: state of the world
 * ({@link SotwStream}: every request lists every name of its type on the wire) and delta ({@link
 * DeltaStream}: requests name only the names that went on or off the wire since the last one,
 * responses carry only changed resources, with per-resource versions, and {@code
 * removed_resources} for deletions).
 *
 * <p>Reconnect rules (gRFC A57): a stream that closes after at least one response was recycled by
 * the server: the backoff is reset and watchers are not told. A stream that fails before any
 * response is an error: watchers without data hear it and the backoff advances. Either way the
 * next stream starts after the backoff's next delay (1 s ×1.6 ±20 %, at most 120 s) less the time
 * the closed stream lived, so a long-lived stream is replaced at once while a server that closes
 * every stream right after its first response sees about one stream a second, not a tight loop.
 *
 * <p>A stream may wait for the connection (a transport that starts calls wait-for-ready): it
 * starts the moment the channel reconnects, and the time it waited does not count as its life.
 * Each failure to connect meanwhile is reported like a failed stream (watchers without data hear
 * it, the client is no longer connected), and {@link ReconnectNudges} shortens the channel's
 * reconnect backoff early in the outage.
 *
 * <p>Every new stream requests every name on the wire again: in state of the world with the type's last
 * accepted version and an empty nonce, in delta with {@code initial_resource_versions} naming the
 * version of every cached value, so a server that kept its state need not resend what the client
 * has.
 */
public final class AdsStreamController {
  private static final Logger log = LoggerFactory.getLogger(AdsStreamController.class);

  private enum Connection {
    CONNECTING,
    CONNECTED,
    FAILING
  }

  private final ServerId server;
  private final AdsTransport transport;
  private final boolean delta;
  private final boolean ignoreResourceDeletion;
  private final ResourceCache cache;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  /** Monotonic nanoseconds, for stream lifetimes. */
  private final LongSupplier ticker;
  private final ExponentialBackoff backoff;
  private final ReconnectNudges nudges;
  /** The chains that list this server (federation, gRFC A47: one stream however many list it). */
  private final List<Events> chains = new ArrayList<>(1);
  /** What every stream to this server shares. */
  private final AdsStream.Settings settings;
  /** What this controller's streams report to it. */
  private final AdsStream.Controller streamEvents = new StreamEvents();
  /** State of the world: what the requests of successive streams share. */
  private final SotwRequests sotwRequests = new SotwRequests();

  /** Types whose names changed since the last flush; see {@link #queueFlush}. */
  private final Set<String> pendingTypes = new TreeSet<>();
  /** Delta: per type, the names that went on or off the wire since the last flush. */
  private final Map<String, Set<String>> pendingNames = new HashMap<>();
  private boolean flushQueued;
  private AdsStream stream;
  /** Streams opened so far; numbers the next one's {@link StreamId}. */
  private long streamsOpened;
  private ScheduledHandle retryTimer;
  /** Whether the server answers, is being reached, or fails (gRFC A57); see {@link #isConnected()}. */
  private Connection connection = Connection.CONNECTING;
  private boolean shutdown;
  /**
   * How many chains have this server active (gRFC A71, each chain its own); none: no stream, none
   * started (a fallback server while a higher one serves).
   */
  private int activeIn;

  /** What a controller reports to the client around it (a {@link ServerChain}). */
  public interface Events {
    /** {@link #isConnected()} changed. */
    void connectionChanged(AdsStreamController controller);

    /**
     * A stream failed before any response, or connecting failed (gRFC A57): {@code what} and
     * {@code status} describe it for watchers without data.
     */
    void failed(AdsStreamController controller, String what, Status status);

    /** The stream closed: this server cannot answer until the next stream is up (gRFC A57). */
    void streamClosed(AdsStreamController controller);

    /**
     * A stream received its first response: the server answers (gRFC A71: what makes a
     * higher-priority server serve again; a ready stream does not, even in delta).
     */
    void answered(AdsStreamController controller);
  }

  /**
   * The chains that list the server join with {@link #listenedToBy}.
   *
   * @param server which of the client's distinct servers this is; it starts inactive, until a
   *     chain has it serve ({@link #activate()}: gRFC A71, a chain's first server serves)
   * @param ads how to reach it and which protocol it speaks
   * @param nodeOnFirstRequestOnly send {@code node} only on a stream's first request (opt-in;
   *     java-control-plane needs it on every request)
   * @param ticker monotonic time in nanoseconds ({@code System::nanoTime}), to measure how long a
   *     stream lived
   * @param filtered whether its streams carry only some names (federation, gRFC A47: the client
   *     has several chains, and a stream carries the names of those that have it active)
   */
  public AdsStreamController(
      ServerId server,
      AdsServer ads,
      ResourceCache cache,
      Node node,
      boolean nodeOnFirstRequestOnly,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      LongSupplier ticker,
      RandomGenerator random,
      boolean filtered) {
    this.server = server;
    this.transport = ads.transport();
    this.delta = ads.delta();
    this.ignoreResourceDeletion = ads.ignoreResourceDeletion();
    this.cache = cache;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.backoff = new ExponentialBackoff(random);
    this.nudges = new ReconnectNudges(transport, syncContext, scheduler, random);
    this.settings = new AdsStream.Settings(
        syncContext, cache, node, nodeOnFirstRequestOnly, transport.target(), new NackLog(), filtered ? this : null);
  }

  /** {@code chain} lists this server: it hears this controller's events. Before any stream. */
  public void listenedToBy(Events chain) {
    chains.add(chain);
  }

  /** Whether a stream has received a response (delta: become ready) and not failed since. */
  public boolean isConnected() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return connection == Connection.CONNECTED;
  }

  /** Whether requests written now reach a ready stream. */
  public boolean isReady() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return stream != null && stream.ready;
  }

  /** Whether the last stream or connection attempt failed and nothing has worked since. */
  public boolean isFailing() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return connection == Connection.FAILING;
  }

  /** Which of the bootstrap's servers this is. */
  public ServerId server() {
    return server;
  }

  /** How the server is reached (the client shuts it down). */
  public AdsTransport transport() {
    return transport;
  }

  /** Names the server in logs and errors. */
  public String target() {
    return transport.target();
  }

  /** Whether this controller speaks delta xDS. */
  public boolean isDelta() {
    return delta;
  }

  /** gRFC A53: whether this server has {@code ignore_resource_deletion}. */
  public boolean ignoresResourceDeletion() {
    return ignoreResourceDeletion;
  }

  /** A name of a type went on or off the wire: tell the server (or open the stream). */
  public void wireChanged(String typeUrl, String name) {
    syncContext.throwIfNotInThisSynchronizationContext();
    sotwRequests.namesChanged(typeUrl);
    if (delta) {
      pendingNames.computeIfAbsent(typeUrl, t -> new HashSet<>()).add(name);
    }
    if (shutdown || activeIn == 0) {
      return;
    }
    if (stream == null) {
      if (retryTimer == null) {
        startStream();
      }
      return; // once ready, the new stream requests every name on the wire
    }
    // A name watched while the stream waits for a channel that cannot connect hears the failure
    // from the cache at once (ResourceCache.addWatcher).
    if (stream.ready) {
      queueFlush(typeUrl);
    }
  }

  /**
   * Sends the type's request at the end of the sync context's current turn, not now: a burst of
   * watches handled in one turn (a watcher callback that watches many names, or watches queued
   * while the context was busy) then costs one request per type instead of one per name, each
   * listing every name (state of the world: n names watched one at a time would cost O(n²)).
   */
  private void queueFlush(String typeUrl) {
    pendingTypes.add(typeUrl);
    if (!flushQueued) {
      flushQueued = true;
      syncContext.executeLater(this::flush);
    }
  }

  private void flush() {
    flushQueued = false;
    AdsStream s = stream;
    if (s != null && s.ready) {
      for (String typeUrl : pendingTypes) {
        s.sendChanges(typeUrl, pendingNames.getOrDefault(typeUrl, Set.of()));
      }
    }
    pendingTypes.clear();
    pendingNames.clear();
  }

  /**
   * A chain has this server serve (its first server, or a fallback chosen, gRFC A71): opens a
   * stream if anything is watched. A server that serves another chain already has its stream
   * also request this chain's names (federation, gRFC A47).
   */
  public void activate() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    if (activeIn++ > 0) {
      resync();
      return;
    }
    // Names moved on and off the wire while no chain had it active, unheard: the next requests
    // list the names anew (a request of as many names as its last one would reuse it).
    sotwRequests.forgetNames();
    if (stream == null && retryTimer == null && !cache.watchedTypeUrls().isEmpty()) {
      startStream();
    }
  }

  /**
   * A chain whose first server this is starts ({@link ServerChain#start}, before anything is
   * watched, off the sync context): the server serves it; no stream yet.
   */
  void servesFromStart() {
    activeIn++;
  }

  /** The names the stream carries changed (a chain joined or left): requests bring it up to date. */
  private void resync() {
    if (stream == null) {
      if (retryTimer == null && !cache.watchedTypeUrls().isEmpty()) {
        startStream();
      }
      return; // once ready, the new stream requests every name it carries
    }
    if (stream.ready) {
      stream.resync();
    }
  }

  /**
   * A chain stops having this server serve (a higher server answers again, gRFC A71): once no
   * chain has it active, the stream is closed and not reopened until {@link #activate()}; before,
   * it stops requesting that chain's names. What it delivered stays in the cache.
   */
  public void deactivate() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown || activeIn == 0) {
      return;
    }
    if (--activeIn > 0) {
      resync();
      return;
    }
    close("a higher-priority xDS server is back");
    boolean wasConnected = connection == Connection.CONNECTED;
    connection = Connection.CONNECTING;
    if (wasConnected) {
      connectionChanged();
    }
  }

  /** Closes the stream and cancels the retry timer; nothing restarts it. Idempotent. */
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    shutdown = true;
    close("xDS client closed");
  }

  private void close(String why) {
    nudges.cancel();
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
    if (stream != null) {
      AdsStream s = stream;
      stream = null;
      if (s.call != null) { // null when starting the call threw
        s.call.cancel(why);
      }
      pendingTypes.clear();
      pendingNames.clear();
      ended(s);
    }
    streamClosed();
  }

  private void connectionChanged() {
    for (int i = 0; i < chains.size(); i++) {
      chains.get(i).connectionChanged(this);
    }
  }

  private void streamClosed() {
    for (int i = 0; i < chains.size(); i++) {
      chains.get(i).streamClosed(this);
    }
  }

  /** A delta stream no longer vouches for what it sent (ResourceCache.deltaStreamEnded). */
  private void ended(AdsStream s) {
    if (delta) {
      cache.deltaStreamEnded(s.id);
    }
  }

  private void startStream() {
    retryTimer = null;
    if (shutdown || activeIn == 0) {
      return;
    }
    StreamId id = new StreamId(server, ++streamsOpened);
    long now = ticker.getAsLong();
    AdsStream s = delta
        ? new DeltaStream(id, now, settings, streamEvents)
        : new SotwStream(id, now, settings, streamEvents, sotwRequests);
    stream = s;
    log.debug("opening {} ADS stream to {}", delta ? "delta" : "state-of-the-world", transport.target());
    try {
      s.start(transport);
      s.call.request(1);
    } catch (RuntimeException e) {
      log.warn("cannot open ADS stream to {}", transport.target(), e);
      syncContext.execute(() -> closed(s, Status.UNAVAILABLE.withDescription("cannot open stream").withCause(e)));
    }
  }

  private void ready(AdsStream s) {
    if (s != stream || s.ready) {
      return;
    }
    s.ready = true;
    s.readyNanos = ticker.getAsLong();
    nudges.cancel();
    pendingTypes.clear(); // the initial requests carry every name
    pendingNames.clear();
    cache.streamReady();
    if (delta) {
      // A delta server that already has what the client holds (initial_resource_versions) need
      // not answer at all, so a ready delta stream counts as connected; one that closes before
      // any response is still a failure (closed).
      markConnected();
      cache.onStreamConnected(settings.via());
    }
    for (String typeUrl : cache.watchedTypeUrls()) {
      s.sendInitial(typeUrl);
    }
  }

  private void markConnected() {
    if (connection != Connection.CONNECTED) {
      connection = Connection.CONNECTED;
      log.info("ADS stream to {} connected", transport.target());
      connectionChanged();
    }
  }

  /** A response arrived on {@code s}: the stream works. Returns false if {@code s} is stale. */
  private boolean responded(AdsStream s, String typeUrl, String version, String nonce, int resources) {
    if (s != stream) {
      return false;
    }
    if (log.isDebugEnabled()) {
      log.debug(
          "ADS response from {}: type {}, version \"{}\", nonce \"{}\", {} resources",
          transport.target(),
          typeUrl,
          version,
          nonce,
          resources);
    }
    if (!s.receivedResponse) {
      s.receivedResponse = true;
      nudges.reset();
      markConnected();
      for (int i = 0; i < chains.size(); i++) {
        chains.get(i).answered(this);
      }
    }
    return true;
  }

  private void requestNext(AdsStream s) {
    if (s == stream) {
      s.call.request(1);
    }
  }

  private void closed(AdsStream s, Status status) {
    if (s != stream) {
      return;
    }
    stream = null;
    nudges.cancel();
    ended(s);
    streamClosed();
    if (shutdown || activeIn == 0) {
      return;
    }
    if (s.receivedResponse) {
      // A57: servers recycle streams (max connection age); not an error, nobody is told.
      log.debug("ADS stream to {} closed after a response ({})", transport.target(), status);
      backoff.reset();
      retryAfterBackoff(s);
      return;
    }
    reportFailure(status);
    retryAfterBackoff(s);
  }

  /**
   * The stream waits for a connection and connecting failed: the stream stays (it starts once the
   * channel reconnects), but this is a failure like a stream that ended before any response.
   */
  private void connectionFailed(AdsStream s, Status cause) {
    if (s != stream || s.ready || shutdown) {
      return;
    }
    reportFailure(cause);
    nudges.connectFailed(() -> s == stream && !s.ready);
  }

  /** Logs a state change once, and tells watchers without data, naming the server. */
  private void reportFailure(Status status) {
    if (connection != Connection.FAILING) {
      boolean wasConnected = connection == Connection.CONNECTED;
      connection = Connection.FAILING;
      log.info(
          "ADS stream to {} {}: {}", transport.target(), wasConnected ? "lost" : "failed", describe(status));
      if (wasConnected) {
        connectionChanged();
      }
    } else {
      log.debug("ADS stream to {} failed again: {}", transport.target(), describe(status));
    }
    String what = "ADS stream to " + transport.target() + " failed";
    for (int i = 0; i < chains.size(); i++) {
      chains.get(i).failed(this, what, status);
    }
  }

  /**
   * Starts the next stream after the backoff's next delay less the time {@code closed} lived (A57),
   * counted from when it was connected: time spent waiting for the channel is not a stream's life.
   */
  private void retryAfterBackoff(AdsStream closed) {
    long lived = Math.max(0, ticker.getAsLong() - (closed.ready ? closed.readyNanos : closed.startNanos));
    long delay = Math.max(0, backoff.nextDelayNanos() - lived);
    if (delay == 0) {
      startStream();
      return;
    }
    log.debug("retrying ADS stream to {} in {} ms", transport.target(), TimeUnit.NANOSECONDS.toMillis(delay));
    retryTimer = syncContext.schedule(this::startStream, delay, TimeUnit.NANOSECONDS, scheduler);
  }

  private static String describe(Status status) {
    return status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
  }

  /** A stream's events, for the current stream only. */
  private final class StreamEvents implements AdsStream.Controller {
    @Override
    public void ready(AdsStream s) {
      AdsStreamController.this.ready(s);
    }

    @Override
    public void closed(AdsStream s, Status status) {
      AdsStreamController.this.closed(s, status);
    }

    @Override
    public void connectionFailed(AdsStream s, Status cause) {
      AdsStreamController.this.connectionFailed(s, cause);
    }

    @Override
    public boolean responded(AdsStream s, String typeUrl, String version, String nonce, int resources) {
      return AdsStreamController.this.responded(s, typeUrl, version, nonce, resources);
    }

    @Override
    public void requestNext(AdsStream s) {
      AdsStreamController.this.requestNext(s);
    }
  }
}
