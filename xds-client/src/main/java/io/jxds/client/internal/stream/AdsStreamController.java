package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.client.internal.cache.CallbackTracker;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ResponseOutcome;
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
 * Runs the client's one ADS stream to one server: opens it lazily on the first subscription, sends
 * a request per type when the transport is ready, ACKs and NACKs, asks for the next response only
 * when the last one's callbacks have run, and reconnects. All methods run on the client's {@link
 * SynchronizationContext}.
 *
 * <p>Two wire protocols share this lifecycle ({@link SotwStream}, {@link DeltaStream}): state of
 * the world ({@code StreamAggregatedResources}, every request lists every name of its type) and
 * delta ({@code DeltaAggregatedResources}: requests name only the names subscribed or
 * unsubscribed since the last one, responses carry only changed resources, with per-resource
 * versions, and {@code removed_resources} for deletions).
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
 * <p>Every new stream re-sends every subscription: in state of the world with the type's last
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
  private final ResourceCache cache;
  private final Node node;
  private final boolean nodeOnFirstRequestOnly;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  /** Monotonic nanoseconds, for stream lifetimes. */
  private final LongSupplier ticker;
  private final ExponentialBackoff backoff;
  private final ReconnectNudges nudges;
  private final Events events;
  private final NackLog nackLog = new NackLog();
  /** Last accepted version per type URL; survives streams (grpc-java #7427). */
  private final Map<String, String> acceptedVersions = new HashMap<>();
  /**
   * Per type URL, a request holding just the type and the subscribed names, rebuilt when the names
   * change: every ACK of a 10 000-cluster response then shares its (immutable) name list instead
   * of copying ten thousand strings.
   */
  private final Map<String, DiscoveryRequest> namesTemplates = new HashMap<>();

  /** Types whose names changed since the last flush; see {@link #queueFlush}. */
  private final Set<String> pendingTypes = new TreeSet<>();
  /** Delta: per type, the names (un)subscribed since the last flush. */
  private final Map<String, Set<String>> pendingNames = new HashMap<>();
  private boolean flushQueued;
  private Stream stream;
  /** Streams opened so far; numbers the next one's {@link StreamId}. */
  private long streamsOpened;
  private ScheduledHandle retryTimer;
  /** Why the waiting stream cannot connect; null unless a failure was reported since it started. */
  private Connection connection = Connection.CONNECTING;
  private boolean shutdown;
  /** Not serving (a fallback server while a higher one serves): no stream, none started. */
  private boolean inactive;

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
   * @param server which of the bootstrap's {@code xds_servers} this is; every server but the first
   *     starts inactive (gRFC A71: the first serves, see {@link #activate()})
   * @param ads how to reach it and which protocol it speaks
   * @param nodeOnFirstRequestOnly send {@code node} only on a stream's first request (opt-in;
   *     java-control-plane needs it on every request)
   * @param ticker monotonic time in nanoseconds ({@code System::nanoTime}), to measure how long a
   *     stream lived
   * @param events hears what the client around it acts on (connection, failures, closed streams)
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
      Events events) {
    this.server = server;
    this.transport = ads.transport();
    this.delta = ads.delta();
    this.inactive = server.index() > 0;
    this.cache = cache;
    this.node = node;
    this.nodeOnFirstRequestOnly = nodeOnFirstRequestOnly;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.backoff = new ExponentialBackoff(random);
    this.nudges = new ReconnectNudges(transport, syncContext, scheduler, random);
    this.events = events;
  }

  /** Whether a stream has received a response (delta: become ready) and not failed since. */
  public boolean isConnected() {
    return connection == Connection.CONNECTED;
  }

  /** Whether requests written now reach a ready stream. */
  public boolean isReady() {
    return stream != null && stream.ready;
  }

  /** Whether the last stream or connection attempt failed and nothing has worked since. */
  public boolean isFailing() {
    return connection == Connection.FAILING;
  }

  /** Which of the bootstrap's servers this is. */
  public ServerId server() {
    return server;
  }

  /** Names the server in logs and errors. */
  public String target() {
    return transport.target();
  }

  /** Whether this controller speaks delta xDS. */
  public boolean isDelta() {
    return delta;
  }

  /** A name of a type was subscribed or unsubscribed: tell the server (or open the stream). */
  public void wireChanged(String typeUrl, String name) {
    namesTemplates.remove(typeUrl);
    if (delta) {
      pendingNames.computeIfAbsent(typeUrl, t -> new HashSet<>()).add(name);
    }
    if (shutdown || inactive) {
      return;
    }
    if (stream == null) {
      if (retryTimer == null) {
        startStream();
      }
      return; // the new stream's onReady sends every subscription
    }
    // A name subscribed while the stream waits for a channel that cannot connect hears the
    // failure from the cache at once (ResourceCache.addWatcher).
    if (stream.ready) {
      queueFlush(typeUrl);
    }
  }

  /**
   * Sends the type's request at the end of the sync context's current turn, not now: a burst of
   * watches handled in one turn (a watcher callback that watches many names, or watches queued
   * while the context was busy) then costs one request per type instead of one per name, each
   * listing every name (state of the world: n names subscribed one at a time would cost O(n²)).
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
    Stream s = stream;
    if (s != null && s.ready) {
      for (String typeUrl : pendingTypes) {
        s.sendChanges(typeUrl, pendingNames.getOrDefault(typeUrl, Set.of()));
      }
    }
    pendingTypes.clear();
    pendingNames.clear();
  }

  /** Starts serving again (a fallback chosen, gRFC A71): opens a stream if anything is watched. */
  public void activate() {
    if (shutdown || !inactive) {
      return;
    }
    inactive = false;
    if (stream == null && retryTimer == null && !cache.watchedTypeUrls().isEmpty()) {
      startStream();
    }
  }

  /**
   * Stops serving (a higher server answers again, gRFC A71): the stream is closed and not
   * reopened until {@link #activate()}. What it delivered stays in the cache.
   */
  public void deactivate() {
    if (shutdown || inactive) {
      return;
    }
    inactive = true;
    close("a higher-priority xDS server is back");
    boolean wasConnected = connection == Connection.CONNECTED;
    connection = Connection.CONNECTING;
    if (wasConnected) {
      events.connectionChanged(this);
    }
  }

  /** Closes the stream and cancels the retry timer; nothing restarts it. */
  public void shutdown() {
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
      Stream s = stream;
      stream = null;
      if (s.call != null) { // null when starting the call threw
        s.call.cancel(why);
      }
      pendingTypes.clear();
      pendingNames.clear();
      ended(s);
    }
    events.streamClosed(this);
  }

  /** A delta stream no longer vouches for what it sent (ResourceCache.deltaStreamEnded). */
  private void ended(Stream s) {
    if (delta) {
      cache.deltaStreamEnded(s.id);
    }
  }

  private void startStream() {
    retryTimer = null;
    if (shutdown || inactive) {
      return;
    }
    StreamId id = new StreamId(server, ++streamsOpened);
    Stream s = delta ? new DeltaStream(id, ticker.getAsLong()) : new SotwStream(id, ticker.getAsLong());
    stream = s;
    log.debug("opening {} ADS stream to {}", delta ? "delta" : "state-of-the-world", transport.target());
    try {
      s.start();
      s.call.request(1);
    } catch (RuntimeException e) {
      log.warn("cannot open ADS stream to {}", transport.target(), e);
      syncContext.execute(() -> onClose(s, Status.UNAVAILABLE.withDescription("cannot open stream").withCause(e)));
    }
  }

  private void onReady(Stream s) {
    if (s != stream || s.ready) {
      return;
    }
    s.ready = true;
    s.readyNanos = ticker.getAsLong();
    nudges.cancel();
    pendingTypes.clear(); // the initial requests carry every name
    pendingNames.clear();
    if (delta) {
      // A delta server that already has what the client holds (initial_resource_versions) need
      // not answer at all, so a ready delta stream counts as connected; one that closes before
      // any response is still a failure (onClose).
      markConnected();
      cache.onStreamConnected();
    }
    for (String typeUrl : cache.watchedTypeUrls()) {
      s.sendInitial(typeUrl);
    }
  }

  private void markConnected() {
    if (connection != Connection.CONNECTED) {
      connection = Connection.CONNECTED;
      log.info("ADS stream to {} connected", transport.target());
      events.connectionChanged(this);
    }
  }

  /** A response arrived on {@code s}: the stream works. Returns false if {@code s} is stale. */
  private boolean beginResponse(Stream s, String typeUrl, String version, String nonce, int resources) {
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
      events.answered(this);
    }
    return true;
  }

  /**
   * Logs a NACK (once per distinct type, version and reason: some servers re-send a rejected
   * version after every NACK) and returns its {@code error_detail} text, bounded.
   */
  private String nackDetail(String typeUrl, String version, ResponseOutcome outcome) {
    // Bounded (DiscoveryRequest.error_detail): the log line and the NACK carry the same text.
    String detail = NackDetail.cap(outcome.errorDetail(), NackDetail.MAX_BYTES);
    String shortType = typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
    if (nackLog.firstTime(typeUrl, version, detail)) {
      log.warn("NACK {} version \"{}\" from {}: {}", shortType, version, transport.target(), detail);
    } else {
      log.debug("NACK {} version \"{}\" again: {}", shortType, version, detail);
    }
    return detail;
  }

  private CallbackTracker tracker(Stream s) {
    return new CallbackTracker(() -> syncContext.execute(() -> requestNext(s)));
  }

  private void requestNext(Stream s) {
    if (s == stream) {
      s.call.request(1);
    }
  }

  private void onClose(Stream s, Status status) {
    if (s != stream) {
      return;
    }
    stream = null;
    nudges.cancel();
    ended(s);
    events.streamClosed(this);
    if (shutdown || inactive) {
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
  private void onConnectionFailure(Stream s, Status cause) {
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
        events.connectionChanged(this);
      }
    } else {
      log.debug("ADS stream to {} failed again: {}", transport.target(), describe(status));
    }
    events.failed(this, "ADS stream to " + transport.target() + " failed", status);
  }

  /**
   * Starts the next stream after the backoff's next delay less the time {@code closed} lived (A57),
   * counted from when it was connected: time spent waiting for the channel is not a stream's life.
   */
  private void retryAfterBackoff(Stream closed) {
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

  /** One ADS call and what the client knows about it. Its events hop onto the sync context. */
  private abstract class Stream implements AdsTransport.Events {
    final StreamId id;
    final long startNanos;
    AdsTransport.CallControl call;
    boolean ready;
    long readyNanos;
    boolean receivedResponse;
    boolean nodeSent;

    Stream(StreamId id, long startNanos) {
      this.id = id;
      this.startNanos = startNanos;
    }

    /** Starts the call; sets {@link #call}. */
    abstract void start();

    /** The stream is ready: the type's first request, naming every subscribed name. */
    abstract void sendInitial(String typeUrl);

    /** Names of the type were subscribed or unsubscribed (in delta, {@code names}). */
    abstract void sendChanges(String typeUrl, Set<String> names);

    /** Whether this request carries the node (every request unless opted out). */
    boolean takeNode() {
      boolean send = !nodeOnFirstRequestOnly || !nodeSent;
      nodeSent = true;
      return send;
    }

    @Override
    public void onReady() {
      syncContext.execute(() -> AdsStreamController.this.onReady(this));
    }

    @Override
    public void onClose(Status status) {
      syncContext.execute(() -> AdsStreamController.this.onClose(this, status));
    }

    @Override
    public void onConnectionFailure(Status cause) {
      syncContext.execute(() -> AdsStreamController.this.onConnectionFailure(this, cause));
    }
  }

  /** State of the world: every request of a type lists every name on the wire. */
  private final class SotwStream extends Stream implements AdsTransport.Listener {
    final Map<String, String> nonces = new HashMap<>();
    final Set<String> respondedTypes = new HashSet<>();
    final Map<String, AnsweredRequest> answered = new HashMap<>();
    AdsTransport.Call sotwCall;

    SotwStream(StreamId id, long startNanos) {
      super(id, startNanos);
    }

    @Override
    void start() {
      sotwCall = transport.start(this);
      call = sotwCall;
    }

    @Override
    void sendInitial(String typeUrl) {
      sendSubscription(typeUrl);
    }

    @Override
    void sendChanges(String typeUrl, Set<String> names) {
      sendSubscription(typeUrl);
    }

    private void sendSubscription(String typeUrl) {
      if (!cache.hasWatched(typeUrl)) {
        // The last name of the type left. The xDS protocol ("How the client specifies what
        // resources to return") reads an empty resource_names as "no resources" once a stream has
        // named some, and as the legacy wildcard before; but java-control-plane's SimpleCache reads
        // it as the wildcard always, and answers with every resource of the type (at once, or at
        // its next snapshot), while an explicit "*" is the wildcard on every server. No request
        // says "nothing" to all of them, so none is sent: the last one stands, the cache holds its
        // names (keeps applying and ACKing what the server sends for them) until a name of the
        // type is watched again or the stream ends.
        return;
      }
      List<String> names = cache.wireNames(typeUrl);
      send(typeUrl, acceptedVersions.getOrDefault(typeUrl, ""), names, nonces.getOrDefault(typeUrl, ""), null);
      // The request is on a ready stream now: only from here may the server be blamed (A57).
      cache.requestSent(typeUrl);
    }

    @Override
    public void onResponse(DiscoveryResponse response) {
      syncContext.execute(() -> handle(response));
    }

    private void handle(DiscoveryResponse response) {
      String typeUrl = response.getTypeUrl();
      if (!beginResponse(this, typeUrl, response.getVersionInfo(), response.getNonce(),
          response.getResourcesCount())) {
        return;
      }
      nonces.put(typeUrl, response.getNonce());
      long answeredMark =
          answered.computeIfAbsent(typeUrl, t -> new AnsweredRequest()).responded(response.getVersionInfo());
      CallbackTracker tracker = tracker(this);
      // The ACK or NACK goes out as soon as the response is validated and cached, before watcher
      // callbacks: a callback that runs inline (a channel's SynchronizationContext) must not hold
      // the control plane's view of this client back. The next response still waits for every
      // callback (the tracker), so flow control is unchanged.
      ResponseOutcome outcome = cache.handleResponse(
          response, tracker, respondedTypes.add(typeUrl), answeredMark, o -> answer(response, o));
      if (outcome == null) {
        log.debug("ignoring ADS response of unsubscribed type {}", typeUrl);
      }
      tracker.finish();
    }

    private void answer(DiscoveryResponse response, ResponseOutcome outcome) {
      String typeUrl = response.getTypeUrl();
      if (outcome.accepted()) {
        acceptedVersions.put(typeUrl, response.getVersionInfo());
        send(typeUrl, response.getVersionInfo(), cache.wireNames(typeUrl), response.getNonce(), null);
        return;
      }
      String detail = nackDetail(typeUrl, response.getVersionInfo(), outcome);
      send(typeUrl, acceptedVersions.getOrDefault(typeUrl, ""), cache.wireNames(typeUrl), response.getNonce(),
          detail);
    }

    private void send(String typeUrl, String version, List<String> names, String nonce, String errorDetail) {
      DiscoveryRequest template = namesTemplates.get(typeUrl);
      if (template == null || template.getResourceNamesCount() != names.size()) {
        template = DiscoveryRequest.newBuilder().setTypeUrl(typeUrl).addAllResourceNames(names).build();
        namesTemplates.put(typeUrl, template);
      }
      answered.computeIfAbsent(typeUrl, t -> new AnsweredRequest()).sent(cache.wireMark(typeUrl));
      DiscoveryRequest.Builder request = template.toBuilder().setVersionInfo(version).setResponseNonce(nonce);
      if (takeNode()) {
        request.setNode(node);
      }
      if (errorDetail != null) {
        request.setErrorDetail(
            com.google.rpc.Status.newBuilder().setCode(Status.Code.INVALID_ARGUMENT.value()).setMessage(errorDetail));
      }
      if (log.isDebugEnabled()) {
        log.debug(
            "ADS request to {}: type {}, version \"{}\", nonce \"{}\", {} names{}",
            transport.target(),
            typeUrl,
            version,
            nonce,
            names.size(),
            errorDetail == null ? "" : ", NACK");
      }
      sotwCall.send(request.build());
    }
  }

  /**
   * Delta: requests carry only the names subscribed or unsubscribed since the last one; the
   * server remembers the rest for the stream's life. ACKs and NACKs name the response by nonce.
   */
  private final class DeltaStream extends Stream implements AdsTransport.DeltaListener {
    /** Per type, the names this stream has asked the server for (what the server tracks). */
    final Map<String, Set<String>> serverNames = new HashMap<>();
    AdsTransport.DeltaCall deltaCall;

    DeltaStream(StreamId id, long startNanos) {
      super(id, startNanos);
    }

    @Override
    void start() {
      deltaCall = transport.startDelta(this);
      call = deltaCall;
    }

    @Override
    void sendInitial(String typeUrl) {
      List<String> names = cache.wireNames(typeUrl);
      if (names.isEmpty()) {
        return; // a first request without names would be a wildcard subscription
      }
      serverNames.put(typeUrl, new HashSet<>(names));
      DeltaDiscoveryRequest.Builder request =
          DeltaDiscoveryRequest.newBuilder()
              .setTypeUrl(typeUrl)
              .addAllResourceNamesSubscribe(names)
              // The versions the client holds: a server need not resend them (xDS protocol,
              // "Incremental xDS": initial_resource_versions on a new stream).
              .putAllInitialResourceVersions(cache.cachedVersions(typeUrl, id));
      send(request, names.size(), 0);
      cache.requestSent(typeUrl);
    }

    @Override
    void sendChanges(String typeUrl, Set<String> names) {
      Set<String> onServer = serverNames.computeIfAbsent(typeUrl, t -> new HashSet<>());
      List<String> subscribe = new ArrayList<>();
      List<String> unsubscribe = new ArrayList<>();
      for (String name : names) {
        boolean watched = cache.isWatched(typeUrl, name);
        if (watched && onServer.add(name)) {
          subscribe.add(name);
        } else if (!watched && onServer.remove(name)) {
          unsubscribe.add(name);
        }
      }
      if (subscribe.isEmpty() && unsubscribe.isEmpty()) {
        return;
      }
      subscribe.sort(null);
      unsubscribe.sort(null);
      send(
          DeltaDiscoveryRequest.newBuilder()
              .setTypeUrl(typeUrl)
              .addAllResourceNamesSubscribe(subscribe)
              .addAllResourceNamesUnsubscribe(unsubscribe),
          subscribe.size(),
          unsubscribe.size());
      cache.requestSent(typeUrl);
    }

    @Override
    public void onResponse(DeltaDiscoveryResponse response) {
      syncContext.execute(() -> handle(response));
    }

    private void handle(DeltaDiscoveryResponse response) {
      String typeUrl = response.getTypeUrl();
      if (!beginResponse(this, typeUrl, response.getSystemVersionInfo(), response.getNonce(),
          response.getResourcesCount())) {
        return;
      }
      CallbackTracker tracker = tracker(this);
      // ACK or NACK before watcher callbacks, as in state of the world (ARCHITECTURE.md).
      ResponseOutcome outcome =
          cache.handleDeltaResponse(response, id, tracker, o -> answer(response, o));
      if (outcome == null) {
        // Nothing of the type is watched (a wildcard server sends every cluster): still ACKed,
        // since a delta server waits for the answer to a nonce before it sends the next one.
        answer(response, ResponseOutcome.ACCEPTED);
      }
      tracker.finish();
    }

    private void answer(DeltaDiscoveryResponse response, ResponseOutcome outcome) {
      DeltaDiscoveryRequest.Builder request =
          DeltaDiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl()).setResponseNonce(response.getNonce());
      if (!outcome.accepted()) {
        String detail = nackDetail(response.getTypeUrl(), response.getSystemVersionInfo(), outcome);
        request.setErrorDetail(
            com.google.rpc.Status.newBuilder().setCode(Status.Code.INVALID_ARGUMENT.value()).setMessage(detail));
      }
      send(request, 0, 0);
    }

    private void send(DeltaDiscoveryRequest.Builder request, int subscribed, int unsubscribed) {
      if (takeNode()) {
        request.setNode(node);
      }
      if (log.isDebugEnabled()) {
        log.debug(
            "delta ADS request to {}: type {}, nonce \"{}\", +{} -{} names{}",
            transport.target(),
            request.getTypeUrl(),
            request.getResponseNonce(),
            subscribed,
            unsubscribed,
            request.hasErrorDetail() ? ", NACK" : "");
      }
      deltaCall.send(request.build());
    }
  }
}
