package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ADS control plane for tests: a real gRPC server implementing
 * {@code envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources} (state
 * of the world) and {@code DeltaAggregatedResources} (delta), on an in-process transport, a
 * loopback port or (on Linux) a unix domain socket, whose resources, faults and observations a
 * test controls.
 *
 * <h2>Protocol behaviour</h2>
 *
 * <ul>
 *   <li><b>Versions.</b> Each type has its own version, {@code "1"}, {@code "2"}, ...; every call
 *       that sets, puts or removes resources of a type bumps it, even when nothing changed.
 *   <li><b>Pushes.</b> A change is pushed to every stream subscribed to that type. Listener and
 *       Cluster responses carry the full set of that type (state of the world: a name missing is a
 *       deletion); RouteConfiguration, ClusterLoadAssignment and any other type carry only the
 *       names that stream subscribed that exist, and no response is sent to a stream for which
 *       that set is empty (there is nothing to say: for these types a missing name means
 *       "unchanged", so an empty response would carry no information).
 *   <li><b>Requests.</b> Each request is classified per stream and type ({@link
 *       RecordedRequest.Kind}) and recorded. A request with a non-empty nonce that is not the last
 *       nonce sent for that type on that stream is stale: recorded and ignored entirely, names
 *       included. A type URL the server does not serve is recorded and never answered. The four
 *       v3 types above are always served; any other type becomes served once {@link
 *       #setResources} is called for it.
 *   <li><b>Responses to requests.</b> The first request for a type on a stream is always
 *       answered with the current resources once the type has any, even if its {@code
 *       version_info} equals the current version: a reconnecting client must get its data again
 *       on the new stream (Envoy's and java-control-plane's servers do the same). A later request
 *       is answered, at the current version, only if it adds names; removing names, ACKs and NACKs
 *       get no response (a NACKed version is not re-sent; the next change is).
 *   <li><b>Nonces</b> are unique for the server's life, across streams and restarts.
 *   <li><b>Delta streams</b> track, per type, the subscribed names and the version of each
 *       resource the client holds (sent to it, or named in {@code initial_resource_versions}). A
 *       response carries the subscribed resources whose version the client does not hold (each
 *       resource's version is the type's version when it last changed) and, in {@code
 *       removed_resources}, the subscribed names the client holds that no longer exist; none is
 *       sent when there is neither. A request is answered when it is the stream's first for the
 *       type or subscribes a new name. Delta requests are recorded too ({@link #requests()}, as a
 *       state-of-the-world request whose {@code version_info} is the version an ACK accepts and
 *       whose {@code resource_names} are the names subscribed after it; {@link #deltaRequests()}
 *       as received), so the same assertions and faults serve both protocols.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * Every method is thread-safe. Responses are written by one daemon thread per running server, in
 * the order they were produced; nothing is ever thrown into gRPC's threads: a failure inside the
 * server is recorded in {@link #unexpectedErrors()} (which {@link FakeAdsServerExtension} turns
 * into a test failure). Every wait is bounded by the timeout given. Logging is at DEBUG only.
 */
public final class FakeAdsServer implements AutoCloseable {
  /** The type URL of envoy v3 {@link Cluster} (CDS). */
  public static final String CLUSTER_TYPE_URL =
      "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  /** The type URL of envoy v3 {@link ClusterLoadAssignment} (EDS). */
  public static final String ENDPOINTS_TYPE_URL =
      "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
  /** The type URL of envoy v3 {@link Listener} (LDS). */
  public static final String LISTENER_TYPE_URL =
      "type.googleapis.com/envoy.config.listener.v3.Listener";
  /** The type URL of envoy v3 {@link RouteConfiguration} (RDS). */
  public static final String ROUTE_TYPE_URL =
      "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  private static final Logger logger = LoggerFactory.getLogger(FakeAdsServer.class);
  private static final long STOP_TIMEOUT_SECONDS = 5;

  private final String inProcessName; // null for a loopback or unix-socket server
  private final Path socketPath; // null unless a unix-socket server
  private volatile ServerCredentials serverCredentials = InsecureServerCredentials.create();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Object lifecycle = new Object();
  private final LoadReportSink loadReports = new LoadReportSink();

  // Everything below is guarded by lock.
  private int port; // the requested port until the first start binds it, then the bound one
  private Server server;
  private EventLoopGroup socketGroup; // the unix-socket server's event loop while it runs
  private ScheduledExecutorService sender;
  private final Map<String, ServedType> types = new HashMap<>();
  private final Map<Long, AdsStream> streams = new LinkedHashMap<>();
  private final List<RecordedRequest> requests = new ArrayList<>();
  private final List<DeltaDiscoveryRequest> deltaRequests = new ArrayList<>();
  private final Map<String, RecordedRequest> lastAcks = new HashMap<>();
  private final Map<String, RecordedRequest> lastNacks = new HashMap<>();
  private final List<Throwable> unexpectedErrors = new ArrayList<>();
  private final List<PendingResponse> held = new ArrayList<>();
  private boolean holding;
  private Duration responseDelay = Duration.ZERO;
  private long nextStreamId = 1;
  private long nextNonce = 1;

  private FakeAdsServer(String inProcessName, int port, Path socketPath) {
    this.inProcessName = inProcessName;
    this.socketPath = socketPath;
    this.port = port;
    for (String typeUrl :
        List.of(CLUSTER_TYPE_URL, ENDPOINTS_TYPE_URL, LISTENER_TYPE_URL, ROUTE_TYPE_URL)) {
      types.put(typeUrl, new ServedType(typeUrl));
    }
  }

  /**
   * Serves over these credentials from the next {@link #start()} on, e.g. a
   * {@code TlsServerCredentials} for a control plane reached over TLS or mutual TLS (gRFC A65); the
   * loopback transport only. Default: plaintext.
   *
   * @param credentials the server's credentials
   * @return this server
   */
  public FakeAdsServer serverCredentials(ServerCredentials credentials) {
    this.serverCredentials = Objects.requireNonNull(credentials, "credentials");
    return this;
  }

  /**
   * A server on the in-process transport under a fresh unique name; not started yet.
   *
   * @return the server
   */
  public static FakeAdsServer inProcess() {
    return inProcess("fake-ads-" + UUID.randomUUID());
  }

  /**
   * A server on the in-process transport under {@code name}; not started yet.
   *
   * @param name the in-process name clients dial
   * @return the server
   */
  public static FakeAdsServer inProcess(String name) {
    return new FakeAdsServer(Objects.requireNonNull(name, "name"), -1, null);
  }

  /**
   * A server on 127.0.0.1 on a free port chosen at the first start; not started yet.
   *
   * @return the server
   */
  public static FakeAdsServer loopback() {
    return loopback(0);
  }

  /**
   * A server on 127.0.0.1:{@code port} (0: a free port chosen at the first start); not started
   * yet.
   *
   * @param port in [0, 65535]
   * @return the server
   * @throws IllegalArgumentException if {@code port} is out of range
   */
  public static FakeAdsServer loopback(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    return new FakeAdsServer(null, port, null);
  }

  /**
   * A server on the unix domain socket {@code path} (as istio-agent serves ADS on {@code
   * /etc/istio/proxy/XDS}); not started yet. Clients dial {@link #serverUri()}, {@code
   * unix:///ABSOLUTE_PATH}, through grpc-netty's unix-socket transport, which needs Linux with
   * epoll: see {@link #unixSocketsSupported()}. The socket file is created at start and removed at
   * stop. Keep the path short: Linux limits it to 107 bytes.
   *
   * @param path where the socket file goes; its directory must exist, the file must not
   * @return the server
   * @throws UnsupportedOperationException if {@link #unixSocketsSupported()} is false
   */
  public static FakeAdsServer unixSocket(Path path) {
    Objects.requireNonNull(path, "path");
    if (!unixSocketsSupported()) {
      throw new UnsupportedOperationException(
          "unix domain sockets need grpc-netty's epoll transport (Linux): " + Epoll.unavailabilityCause());
    }
    return new FakeAdsServer(null, -1, path.toAbsolutePath());
  }

  /**
   * Whether this platform can serve and dial unix domain sockets through gRPC (Linux with the
   * epoll native transport that grpc-netty-shaded ships); tests of {@link #unixSocket} assume it.
   *
   * @return true where {@link #unixSocket} works
   */
  public static boolean unixSocketsSupported() {
    return Epoll.isAvailable();
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Starts serving; after {@link #stop()}, starts again on the same port or name (a control-plane
   * restart) with the same resources and versions. Does nothing if already running.
   *
   * @return this server
   * @throws UncheckedIOException if the port cannot be bound
   */
  public FakeAdsServer start() {
    synchronized (lifecycle) {
      if (isRunning()) {
        return this;
      }
      ScheduledThreadPoolExecutor newSender =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "fake-ads-sender");
                t.setDaemon(true);
                return t;
              });
      newSender.setRemoveOnCancelPolicy(true);
      Server newServer = buildServer();
      lock.lock();
      try {
        sender = newSender; // before the server starts: streams may open at once
      } finally {
        lock.unlock();
      }
      try {
        newServer.start();
      } catch (IOException e) {
        newServer.shutdownNow();
        EventLoopGroup group;
        lock.lock();
        try {
          sender = null;
          group = socketGroup;
          socketGroup = null;
        } finally {
          lock.unlock();
        }
        newSender.shutdownNow();
        if (group != null) {
          group.shutdownGracefully(0, STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        throw new UncheckedIOException("FakeAdsServer could not start on " + describe(), e);
      }
      lock.lock();
      try {
        if (inProcessName == null && socketPath == null) {
          port = ((InetSocketAddress) newServer.getListenSockets().get(0)).getPort();
        }
        server = newServer;
      } finally {
        lock.unlock();
      }
      logger.debug("FakeAdsServer started on {}", describe());
      return this;
    }
  }

  /**
   * Stops serving: every open stream is cut at once ({@code shutdownNow}: a plain shutdown would
   * wait for the open ADS streams forever) and held or delayed responses are dropped. Resources,
   * versions and recorded requests are kept, so {@link #start()} resumes where it left off.
   * Does nothing if not running.
   */
  public void stop() {
    synchronized (lifecycle) {
      Server oldServer;
      ScheduledExecutorService oldSender;
      EventLoopGroup oldGroup;
      lock.lock();
      try {
        oldServer = server;
        oldSender = sender;
        oldGroup = socketGroup;
        server = null;
        sender = null;
        socketGroup = null;
        for (AdsStream stream : streams.values()) {
          stream.open = false;
        }
        streams.clear();
        held.clear();
        changed.signalAll();
      } finally {
        lock.unlock();
      }
      if (oldServer == null) {
        return;
      }
      oldServer.shutdownNow();
      oldSender.shutdownNow();
      try {
        if (!oldServer.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          recordUnexpected(new IllegalStateException("server did not terminate in 5 s"));
        }
        oldSender.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (oldGroup != null) {
          oldGroup.shutdownGracefully(0, STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      logger.debug("FakeAdsServer stopped on {}", describe());
    }
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /**
   * Whether the server is serving.
   *
   * @return true between a start and a stop
   */
  public boolean isRunning() {
    lock.lock();
    try {
      return server != null;
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- addressing

  /**
   * Whether this server uses the in-process transport.
   *
   * @return true for an in-process server, false for a loopback one
   */
  public boolean isInProcess() {
    return inProcessName != null;
  }

  /**
   * The in-process name.
   *
   * @return the name clients dial with {@link InProcessChannelBuilder#forName}
   * @throws IllegalStateException for a loopback server
   */
  public String inProcessName() {
    if (inProcessName == null) {
      throw new IllegalStateException("not an in-process server");
    }
    return inProcessName;
  }

  /**
   * The loopback port (the real one once started, also after a stop).
   *
   * @return the port
   * @throws IllegalStateException for an in-process or unix-socket server, or before the first
   *     start of a server asked for port 0
   */
  public int port() {
    if (inProcessName != null) {
      throw new IllegalStateException("an in-process server has no port");
    }
    if (socketPath != null) {
      throw new IllegalStateException("a unix-socket server has no port");
    }
    lock.lock();
    try {
      if (port == 0) {
        throw new IllegalStateException("port 0 is chosen at the first start()");
      }
      return port;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The address a client dials: {@code 127.0.0.1:PORT} for a loopback server, {@code
   * unix:///ABSOLUTE_PATH} for a unix-socket one, {@code inprocess:NAME} for an in-process one
   * (which only a client that maps it to {@link InProcessChannelBuilder#forName} can dial;
   * grpc-java's xDS client cannot).
   *
   * @return the server URI, as a bootstrap's {@code server_uri} holds it
   */
  public String serverUri() {
    if (socketPath != null) {
      return "unix://" + socketPath;
    }
    return inProcessName != null ? "inprocess:" + inProcessName : "127.0.0.1:" + port();
  }

  /**
   * A new plaintext channel to this server; the caller shuts it down.
   *
   * @return the channel
   */
  public ManagedChannel newClientChannel() {
    if (inProcessName != null) {
      return InProcessChannelBuilder.forName(inProcessName).build();
    }
    if (socketPath != null) {
      // grpc-netty's unix-socket resolver and channel provider take the unix: target.
      return Grpc.newChannelBuilder(serverUri(), InsecureChannelCredentials.create()).build();
    }
    return ManagedChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext().build();
  }

  /**
   * A gRPC-format xDS bootstrap pointing at this server, with insecure credentials, no server
   * features and node id {@value FakeAdsBootstrap#DEFAULT_NODE_ID}. See {@link #bootstrap()} for
   * the options.
   *
   * @return the bootstrap JSON
   */
  public String bootstrapJson() {
    return bootstrap().build();
  }

  /**
   * A builder for a bootstrap pointing at this server (node, server features, jxds knobs).
   *
   * @return a new builder
   */
  public FakeAdsBootstrap bootstrap() {
    return new FakeAdsBootstrap(serverUri());
  }

  // ---------------------------------------------------------------- resources

  /**
   * Replaces every resource of {@code typeUrl} with {@code resources} (name to message), bumps
   * that type's version and pushes to every subscribed stream. A message that is an {@link Any}
   * is served as is (so a test can serve a resource of the wrong type); any other message must
   * pack to {@code typeUrl}. Calling this for a type URL other than the four v3 ones makes the
   * server serve that type.
   *
   * @param typeUrl the resources' type URL
   * @param resources the resources by name
   * @throws IllegalArgumentException if a message packs to another type URL
   */
  public void setResources(String typeUrl, Map<String, ? extends Message> resources) {
    Map<String, Any> packed = pack(typeUrl, resources);
    update(typeUrl, state -> {
      state.resources.clear();
      state.resources.putAll(packed);
    });
  }

  /**
   * Adds or replaces the given resources of {@code typeUrl}, keeping the others; bumps and pushes.
   *
   * @param typeUrl the resources' type URL
   * @param resources the resources by name
   * @throws IllegalArgumentException if a message packs to another type URL
   */
  public void putResources(String typeUrl, Map<String, ? extends Message> resources) {
    Map<String, Any> packed = pack(typeUrl, resources);
    update(typeUrl, state -> state.resources.putAll(packed));
  }

  /**
   * Removes the named resources of {@code typeUrl} (unknown names are ignored); bumps and pushes.
   *
   * @param typeUrl the resources' type URL
   * @param names the names to remove
   */
  public void removeResources(String typeUrl, String... names) {
    List<String> toRemove = List.of(names);
    update(typeUrl, state -> state.resources.keySet().removeAll(toRemove));
  }

  /**
   * Replaces all clusters with these, keyed by {@code name}.
   *
   * @param clusters the clusters to serve
   */
  public void setClusters(Cluster... clusters) {
    setResources(CLUSTER_TYPE_URL, byName(Arrays.asList(clusters), Cluster::getName));
  }

  /**
   * Adds or replaces these clusters, keyed by {@code name}, keeping the others.
   *
   * @param clusters the clusters to add or replace
   */
  public void putClusters(Cluster... clusters) {
    putResources(CLUSTER_TYPE_URL, byName(Arrays.asList(clusters), Cluster::getName));
  }

  /**
   * Removes the named clusters.
   *
   * @param names the clusters' names
   */
  public void removeClusters(String... names) {
    removeResources(CLUSTER_TYPE_URL, names);
  }

  /**
   * Replaces all endpoint assignments with these, keyed by {@code cluster_name}.
   *
   * @param assignments the assignments to serve
   */
  public void setEndpoints(ClusterLoadAssignment... assignments) {
    setResources(
        ENDPOINTS_TYPE_URL,
        byName(Arrays.asList(assignments), ClusterLoadAssignment::getClusterName));
  }

  /**
   * Adds or replaces these endpoint assignments, keyed by {@code cluster_name}.
   *
   * @param assignments the assignments to add or replace
   */
  public void putEndpoints(ClusterLoadAssignment... assignments) {
    putResources(
        ENDPOINTS_TYPE_URL,
        byName(Arrays.asList(assignments), ClusterLoadAssignment::getClusterName));
  }

  /**
   * Removes the named endpoint assignments.
   *
   * @param clusterNames the assignments' {@code cluster_name}s
   */
  public void removeEndpoints(String... clusterNames) {
    removeResources(ENDPOINTS_TYPE_URL, clusterNames);
  }

  /**
   * Replaces all listeners with these, keyed by {@code name}.
   *
   * @param listeners the listeners to serve
   */
  public void setListeners(Listener... listeners) {
    setResources(LISTENER_TYPE_URL, byName(Arrays.asList(listeners), Listener::getName));
  }

  /**
   * Removes the named listeners.
   *
   * @param names the listeners' names
   */
  public void removeListeners(String... names) {
    removeResources(LISTENER_TYPE_URL, names);
  }

  /**
   * Replaces all route configurations with these, keyed by {@code name}.
   *
   * @param routes the route configurations to serve
   */
  public void setRoutes(RouteConfiguration... routes) {
    setResources(ROUTE_TYPE_URL, byName(Arrays.asList(routes), RouteConfiguration::getName));
  }

  /**
   * Removes the named route configurations.
   *
   * @param names the route configurations' names
   */
  public void removeRoutes(String... names) {
    removeResources(ROUTE_TYPE_URL, names);
  }

  /**
   * The current version of {@code typeUrl}.
   *
   * @param typeUrl the type URL
   * @return the version last served, or {@code ""} if the type has never been set
   */
  public String version(String typeUrl) {
    lock.lock();
    try {
      ServedType state = types.get(typeUrl);
      return state == null || state.version == null ? "" : state.version;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The version of one resource as delta streams see it (the type's version when the resource
   * last changed), or {@code ""} if it does not exist.
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   * @return its delta version
   */
  public String resourceVersion(String typeUrl, String name) {
    lock.lock();
    try {
      ServedType state = types.get(typeUrl);
      return state == null ? "" : state.resourceVersions.getOrDefault(name, "");
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- observations

  /**
   * Every request received so far (also across restarts).
   *
   * @return the requests, oldest first
   */
  public List<RecordedRequest> requests() {
    lock.lock();
    try {
      return List.copyOf(requests);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forgets the recorded requests, ACKs and NACKs (not the streams' subscriptions or nonces), so
   * that later {@link #awaitRequest} calls and {@link #lastAck} see only what arrives next.
   */
  public void clearRequests() {
    lock.lock();
    try {
      requests.clear();
      deltaRequests.clear();
      lastAcks.clear();
      lastNacks.clear();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Every delta request received so far (also across restarts), as received, oldest first.
   *
   * @return the delta requests
   */
  public List<DeltaDiscoveryRequest> deltaRequests() {
    lock.lock();
    try {
      return List.copyOf(deltaRequests);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Every request of {@code typeUrl} received so far.
   *
   * @param typeUrl the type URL
   * @return the requests, oldest first
   */
  public List<RecordedRequest> requests(String typeUrl) {
    return requests().stream().filter(r -> r.typeUrl().equals(typeUrl)).toList();
  }

  /**
   * Waits until a request of {@code typeUrl} matching {@code predicate} has been received (also
   * one received before the call) and returns the first such request.
   *
   * @param typeUrl the request's type URL
   * @param predicate what the request must satisfy
   * @param timeout how long to wait
   * @return the first matching request
   * @throws AssertionError if none arrives within {@code timeout}, listing what did arrive
   */
  public RecordedRequest awaitRequest(
      String typeUrl, Predicate<? super RecordedRequest> predicate, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      int scanned = 0;
      while (true) {
        for (; scanned < requests.size(); scanned++) {
          RecordedRequest r = requests.get(scanned);
          if (r.typeUrl().equals(typeUrl) && predicate.test(r)) {
            return r;
          }
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError(
              "no matching " + typeUrl + " request within " + timeout + "; received: "
                  + requests.stream().filter(r -> r.typeUrl().equals(typeUrl)).toList());
        }
        changed.awaitNanos(remaining);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for a " + typeUrl + " request", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits for an ACK of {@code version} of {@code typeUrl}; see {@link #awaitRequest}.
   *
   * @param typeUrl the type URL
   * @param version the ACKed {@code version_info}
   * @param timeout how long to wait
   * @return the first such ACK
   */
  public RecordedRequest awaitAck(String typeUrl, String version, Duration timeout) {
    return awaitRequest(
        typeUrl,
        r -> r.kind() == RecordedRequest.Kind.ACK && r.versionInfo().equals(version),
        timeout);
  }

  /**
   * Waits for any NACK of {@code typeUrl}; see {@link #awaitRequest}.
   *
   * @param typeUrl the type URL
   * @param timeout how long to wait
   * @return the first NACK
   */
  public RecordedRequest awaitNack(String typeUrl, Duration timeout) {
    return awaitRequest(typeUrl, r -> r.kind() == RecordedRequest.Kind.NACK, timeout);
  }

  /**
   * The most recent ACK of {@code typeUrl} on any stream.
   *
   * @param typeUrl the type URL
   * @return the ACK, or empty when none arrived since the start or {@link #clearRequests()}
   */
  public Optional<RecordedRequest> lastAck(String typeUrl) {
    lock.lock();
    try {
      return Optional.ofNullable(lastAcks.get(typeUrl));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The most recent NACK of {@code typeUrl} on any stream; its {@link
   * RecordedRequest#errorMessage()} is the client's error text.
   *
   * @param typeUrl the type URL
   * @return the NACK, or empty when none arrived since the start or {@link #clearRequests()}
   */
  public Optional<RecordedRequest> lastNack(String typeUrl) {
    lock.lock();
    try {
      return Optional.ofNullable(lastNacks.get(typeUrl));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The names of {@code typeUrl} currently subscribed on open streams (the union over streams),
   * sorted. A wildcard subscription (legacy empty first request for Listener or Cluster) adds
   * no names.
   *
   * @param typeUrl the type URL
   * @return the subscribed names, sorted
   */
  public Set<String> subscribedNames(String typeUrl) {
    lock.lock();
    try {
      Set<String> names = new TreeSet<>();
      for (AdsStream stream : streams.values()) {
        StreamSubscription state = stream.types.get(typeUrl);
        if (state != null) {
          names.addAll(state.names);
        }
        DeltaSubscription delta = stream.deltaTypes.get(typeUrl);
        if (delta != null) {
          names.addAll(delta.names);
        }
      }
      return Collections.unmodifiableSet(names);
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many ADS streams are open now.
   *
   * @return the number of open streams
   */
  public int connectedStreams() {
    lock.lock();
    try {
      return streams.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until exactly {@code count} ADS streams are open.
   *
   * @param count the number of streams
   * @param timeout how long to wait
   * @throws AssertionError on timeout
   */
  public void awaitConnectedStreams(int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (streams.size() != count) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError(
              "expected " + count + " open streams within " + timeout + ", have "
                  + streams.size());
        }
        changed.awaitNanos(remaining);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for streams", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Failures inside the server (never expected): what {@link FakeAdsServerExtension} checks.
   *
   * @return the failures, oldest first; empty when all is well
   */
  public List<Throwable> unexpectedErrors() {
    lock.lock();
    try {
      return List.copyOf(unexpectedErrors);
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- faults

  /**
   * Closes every open stream with {@code status} (as a control plane that fails or recycles its
   * streams). The server keeps running; clients may reconnect.
   *
   * @param status the status the streams end with
   */
  public void breakStreams(Status status) {
    lock.lock();
    try {
      for (AdsStream stream : streams.values()) {
        stream.open = false;
        submit(() -> stream.out.onError(status.asRuntimeException()), stream);
      }
      streams.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * From now on, responses (pushes and answers to requests) are queued instead of sent, as a
   * control plane that stops answering while keeping its streams open. Requests are still
   * received, classified and recorded.
   */
  public void holdResponses() {
    lock.lock();
    try {
      holding = true;
    } finally {
      lock.unlock();
    }
  }

  /** Sends the held responses in order (to streams still open) and stops holding. */
  public void releaseResponses() {
    lock.lock();
    try {
      holding = false;
      for (PendingResponse pending : held) {
        schedule(pending);
      }
      held.clear();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Delays every later response by {@code delay} (zero to stop delaying). Responses already
   * scheduled keep their delay.
   *
   * @param delay zero or positive
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public void setResponseDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay: " + delay);
    }
    lock.lock();
    try {
      responseDelay = delay;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sends {@code response} unchanged, at once (neither held nor delayed), on every open stream,
   * for malformed or hostile input. Its nonce, when not empty, becomes the last nonce sent for its
   * type on each stream, so the client's answer to it is classified as an ACK or NACK.
   *
   * @param response the response, sent as is
   * @return the number of streams it was sent on
   */
  public int sendRaw(DiscoveryResponse response) {
    return sendRawOn(false, response);
  }

  /**
   * Sends {@code response} unchanged, at once, on every open delta stream; see {@link
   * #sendRaw(DiscoveryResponse)}.
   *
   * @param response the delta response to send
   * @return the number of streams it was sent on
   */
  public int sendRawDelta(DeltaDiscoveryResponse response) {
    return sendRawOn(true, response);
  }

  private int sendRawOn(boolean delta, Message response) {
    lock.lock();
    try {
      int sent = 0;
      for (AdsStream stream : streams.values()) {
        if (stream.delta == delta) {
          submit(() -> sendNow(stream, response, false), stream);
          sent++;
        }
      }
      return sent;
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- the ADS service

  private Server buildServer() {
    AdsService service = new AdsService();
    if (inProcessName != null) {
      return InProcessServerBuilder.forName(inProcessName).addService(service).addService(loadReports.service())
          .build();
    }
    if (socketPath != null) {
      return buildUnixSocketServer(service);
    }
    int bindPort;
    lock.lock();
    try {
      bindPort = port;
    } finally {
      lock.unlock();
    }
    InetAddress loopback;
    try {
      loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (UnknownHostException e) {
      throw new AssertionError(e); // a literal address never needs a lookup
    }
    return NettyServerBuilder.forAddress(
            new InetSocketAddress(loopback, bindPort), serverCredentials)
        .addService(service)
        .addService(loadReports.service())
        .build();
  }

  // grpc-netty's own unix-socket client uses epoll; the server side needs its channel type and an
  // event loop of the same kind, with daemon threads so a forgotten server cannot hold the JVM.
  private Server buildUnixSocketServer(AdsService service) {
    EventLoopGroup group = new EpollEventLoopGroup(1, new DefaultThreadFactory("fake-ads-unix", true));
    lock.lock();
    try {
      socketGroup = group;
    } finally {
      lock.unlock();
    }
    return NettyServerBuilder.forAddress(
            new DomainSocketAddress(socketPath.toString()), InsecureServerCredentials.create())
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(group)
        .workerEventLoopGroup(group)
        .addService(service)
        .addService(loadReports.service())
        .build();
  }

  /**
   * The load reports (LRS) clients sent to this server, and what it asks of them.
   *
   * @return this server's load-report sink, the same for its life
   */
  public LoadReportSink loadReports() {
    return loadReports;
  }

  private final class AdsService
      extends AggregatedDiscoveryServiceGrpc.AggregatedDiscoveryServiceImplBase {
    @Override
    public StreamObserver<DiscoveryRequest> streamAggregatedResources(
        StreamObserver<DiscoveryResponse> responseObserver) {
      return serve(responseObserver, false, FakeAdsServer.this::onRequest);
    }

    @Override
    public StreamObserver<DeltaDiscoveryRequest> deltaAggregatedResources(
        StreamObserver<DeltaDiscoveryResponse> responseObserver) {
      return serve(responseObserver, true, FakeAdsServer.this::onDeltaRequest);
    }

    private <Q> StreamObserver<Q> serve(
        StreamObserver<?> responseObserver, boolean delta, BiConsumer<AdsStream, Q> onRequest) {
      ServerCallStreamObserver<?> out = (ServerCallStreamObserver<?>) responseObserver;
      AdsStream stream = openStream(out, delta);
      // Setting a cancel handler also stops onNext from throwing after the client went away.
      out.setOnCancelHandler(() -> closeStream(stream));
      return new StreamObserver<>() {
        @Override
        public void onNext(Q request) {
          try {
            onRequest.accept(stream, request);
          } catch (RuntimeException | Error e) {
            recordUnexpected(e);
          }
        }

        @Override
        public void onError(Throwable t) {
          closeStream(stream); // the client cancelled: normal
        }

        @Override
        public void onCompleted() {
          if (closeStream(stream)) {
            submit(out::onCompleted, stream);
          }
        }
      };
    }
  }

  private AdsStream openStream(ServerCallStreamObserver<?> out, boolean delta) {
    lock.lock();
    try {
      AdsStream stream = new AdsStream(nextStreamId++, out, delta);
      if (sender != null) {
        streams.put(stream.id, stream);
      } else {
        stream.open = false; // raced with stop(): shutdownNow is cancelling this call
      }
      changed.signalAll();
      logger.debug("ADS stream {} opened", stream.id);
      return stream;
    } finally {
      lock.unlock();
    }
  }

  /** Returns whether the stream was open. */
  private boolean closeStream(AdsStream stream) {
    lock.lock();
    try {
      boolean wasOpen = stream.open;
      stream.open = false;
      streams.remove(stream.id);
      changed.signalAll();
      return wasOpen;
    } finally {
      lock.unlock();
    }
  }

  private void onRequest(AdsStream stream, DiscoveryRequest request) {
    lock.lock();
    try {
      if (!stream.open) {
        return; // broken by breakStreams/stop; the client has not noticed yet
      }
      ServedType type = types.get(request.getTypeUrl());
      RecordedRequest.Kind kind;
      DiscoveryResponse response = null;
      if (type == null) {
        kind = RecordedRequest.Kind.UNKNOWN_TYPE;
      } else {
        StreamSubscription state =
            stream.types.computeIfAbsent(request.getTypeUrl(), k -> new StreamSubscription());
        kind = state.classify(request);
        if (kind != RecordedRequest.Kind.STALE) {
          response = state.apply(type, request, kind);
        }
      }
      record(RecordedRequest.of(stream.id, request, kind));
      if (response != null) {
        enqueue(stream, response);
      }
    } finally {
      lock.unlock();
    }
  }

  private void onDeltaRequest(AdsStream stream, DeltaDiscoveryRequest request) {
    lock.lock();
    try {
      if (!stream.open) {
        return; // broken by breakStreams/stop; the client has not noticed yet
      }
      deltaRequests.add(request);
      ServedType type = types.get(request.getTypeUrl());
      RecordedRequest.Kind kind;
      DeltaDiscoveryResponse response = null;
      DiscoveryRequest recordedAs;
      if (type == null) {
        kind = RecordedRequest.Kind.UNKNOWN_TYPE;
        recordedAs = new DeltaSubscription().asRecorded(request, kind, "");
      } else {
        DeltaSubscription state = stream.deltaTypes.computeIfAbsent(request.getTypeUrl(), k -> new DeltaSubscription());
        kind = state.classify(request);
        String acking = state.lastVersionSent;
        response = state.apply(type, request, kind);
        recordedAs = state.asRecorded(request, kind, acking);
      }
      record(RecordedRequest.of(stream.id, recordedAs, kind));
      if (response != null) {
        enqueue(stream, response);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called with the lock held. */
  private void record(RecordedRequest recorded) {
    requests.add(recorded);
    if (recorded.kind() == RecordedRequest.Kind.ACK) {
      lastAcks.put(recorded.typeUrl(), recorded);
    } else if (recorded.kind() == RecordedRequest.Kind.NACK) {
      lastNacks.put(recorded.typeUrl(), recorded);
    }
    changed.signalAll();
    logger.debug("ADS request {}", recorded);
  }

  private void update(String typeUrl, Consumer<ServedType> change) {
    Objects.requireNonNull(typeUrl, "typeUrl");
    lock.lock();
    try {
      ServedType type = types.computeIfAbsent(typeUrl, ServedType::new);
      Map<String, Any> before = new HashMap<>(type.resources);
      change.accept(type);
      type.bumpVersion();
      type.recordResourceVersions(before);
      logger.debug("{} now at version {} with {}", typeUrl, type.version,
          type.resources.keySet());
      for (AdsStream stream : streams.values()) {
        StreamSubscription state = stream.types.get(typeUrl);
        if (state != null && state.requested) {
          DiscoveryResponse response = type.responseFor(state);
          if (response != null) {
            enqueue(stream, response);
          }
        }
        DeltaSubscription delta = stream.deltaTypes.get(typeUrl);
        if (delta != null && delta.requested) {
          DeltaDiscoveryResponse response = type.deltaResponseFor(delta);
          if (response != null) {
            enqueue(stream, response);
          }
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- sending

  /** Called with the lock held: holds, delays or sends a response produced now. */
  private void enqueue(AdsStream stream, Message response) {
    PendingResponse pending = new PendingResponse(stream, response);
    if (holding) {
      held.add(pending);
    } else {
      schedule(pending);
    }
  }

  /** Called with the lock held. */
  private void schedule(PendingResponse pending) {
    if (sender == null) {
      return;
    }
    Runnable send = () -> sendNow(pending.stream(), pending.response(), true);
    try {
      if (responseDelay.isZero()) {
        sender.execute(guarded(send, pending.stream()));
      } else {
        sender.schedule(
            guarded(send, pending.stream()), responseDelay.toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (RejectedExecutionException e) {
      // stop() raced us: the stream is gone, nothing to send.
    }
  }

  /** Called with the lock held: runs {@code task} on the sender thread. */
  private void submit(Runnable task, AdsStream stream) {
    if (sender == null) {
      return;
    }
    try {
      sender.execute(guarded(task, stream));
    } catch (RejectedExecutionException e) {
      // stop() raced us.
    }
  }

  private Runnable guarded(Runnable task, AdsStream stream) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        if (!stream.out.isCancelled()) {
          recordUnexpected(e);
        }
      }
    };
  }

  /** Runs on the sender thread, so writes to one stream never overlap. */
  private void sendNow(AdsStream stream, Message response, boolean assignNonce) {
    if (response instanceof DeltaDiscoveryResponse delta) {
      sendDeltaNow(stream, delta, assignNonce);
      return;
    }
    DiscoveryResponse toSend = (DiscoveryResponse) response;
    lock.lock();
    try {
      if (!stream.open) {
        return;
      }
      if (assignNonce) {
        toSend = toSend.toBuilder().setNonce(Long.toString(nextNonce++)).build();
      }
      if (!toSend.getNonce().isEmpty()) {
        StreamSubscription state =
            stream.types.computeIfAbsent(toSend.getTypeUrl(), k -> new StreamSubscription());
        state.lastNonceSent = toSend.getNonce();
        state.nonceAnswered = false;
      }
    } finally {
      lock.unlock();
    }
    if (logger.isDebugEnabled()) {
      logger.debug("ADS response on stream {}: type={} version={} nonce={} resources={}",
          stream.id, toSend.getTypeUrl(), toSend.getVersionInfo(), toSend.getNonce(),
          toSend.getResourcesCount());
    }
    stream.send(toSend);
  }

  private void sendDeltaNow(AdsStream stream, DeltaDiscoveryResponse response, boolean assignNonce) {
    DeltaDiscoveryResponse toSend = response;
    lock.lock();
    try {
      if (!stream.open) {
        return;
      }
      if (assignNonce) {
        toSend = response.toBuilder().setNonce(Long.toString(nextNonce++)).build();
      }
      if (!toSend.getNonce().isEmpty()) {
        DeltaSubscription state =
            stream.deltaTypes.computeIfAbsent(toSend.getTypeUrl(), k -> new DeltaSubscription());
        state.lastNonceSent = toSend.getNonce();
        state.nonceAnswered = false;
        state.lastVersionSent = toSend.getSystemVersionInfo();
      }
    } finally {
      lock.unlock();
    }
    if (logger.isDebugEnabled()) {
      logger.debug("delta ADS response on stream {}: type={} version={} nonce={} resources={} removed={}",
          stream.id, toSend.getTypeUrl(), toSend.getSystemVersionInfo(), toSend.getNonce(),
          toSend.getResourcesCount(), toSend.getRemovedResourcesCount());
    }
    stream.send(toSend);
  }

  /** Records a failure inside the server; package-private for the extension's own test. */
  void recordUnexpected(Throwable t) {
    lock.lock();
    try {
      unexpectedErrors.add(t);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    logger.debug("FakeAdsServer internal failure", t);
  }

  // ---------------------------------------------------------------- helpers

  private String describe() {
    if (socketPath != null) {
      return "unix:" + socketPath;
    }
    return inProcessName != null ? "in-process:" + inProcessName : "127.0.0.1:" + port;
  }

  private static Map<String, Any> pack(String typeUrl, Map<String, ? extends Message> resources) {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Map<String, Any> packed = new LinkedHashMap<>();
    resources.forEach(
        (name, message) -> {
          Any any = message instanceof Any a ? a : Any.pack(message);
          if (!(message instanceof Any) && !any.getTypeUrl().equals(typeUrl)) {
            throw new IllegalArgumentException(
                "resource '" + name + "' is a " + any.getTypeUrl() + ", not a " + typeUrl
                    + " (pass an Any to serve a mismatched type on purpose)");
          }
          packed.put(Objects.requireNonNull(name, "resource name"), any);
        });
    return packed;
  }

  private static <T extends Message> Map<String, T> byName(
      List<T> messages, Function<T, String> name) {
    Map<String, T> map = new LinkedHashMap<>();
    for (T message : messages) {
      if (map.put(name.apply(message), message) != null) {
        throw new IllegalArgumentException("two resources named '" + name.apply(message) + "'");
      }
    }
    return map;
  }

  private static final class AdsStream {
    final long id;
    final ServerCallStreamObserver<?> out;
    final boolean delta;
    final Map<String, StreamSubscription> types = new HashMap<>();
    final Map<String, DeltaSubscription> deltaTypes = new HashMap<>();
    boolean open = true; // guarded by the server's lock

    AdsStream(long id, ServerCallStreamObserver<?> out, boolean delta) {
      this.id = id;
      this.out = out;
      this.delta = delta;
    }

    /** Writes a response of this stream's protocol (the sender thread only). */
    @SuppressWarnings("unchecked")
    void send(Message response) {
      ((StreamObserver<Message>) out).onNext(response);
    }
  }

  private record PendingResponse(AdsStream stream, Message response) {}
}
