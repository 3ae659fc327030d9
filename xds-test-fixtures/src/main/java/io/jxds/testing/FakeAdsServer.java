package io.jxds.testing;

import static io.jxds.testing.ServedResources.byName;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.grpc.ManagedChannel;
import io.grpc.ServerCredentials;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An ADS control plane for tests: a real gRPC server implementing {@code
 * envoy.service.discovery.v3.AggregatedDiscoveryService}, state of the world and delta, on a
 * loopback port (plaintext or TLS), in process, or on a unix domain socket. A test sets what it
 * serves and reads what its client asked:
 *
 * <pre>{@code
 * FakeAdsServer ads = FakeAdsServer.loopback().start();
 * ads.setClusters(XdsResources.cluster("payments").build());
 * // point the client under test at ads.serverUri(), or at the bootstrap ads.bootstrap().build()
 * ads.requests().awaitAck(FakeAdsServer.CLUSTER_TYPE_URL, "1", Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>{@link XdsTestBed} adds what a jxds channel needs (bootstrap, backends, channels). Beyond
 * what it serves: {@link #requests()} (what it received, ACKs, NACKs, waits), {@link #streams()}
 * (open streams, their subscriptions), {@link #faults()} (broken streams; held, delayed or raw
 * responses) and {@link #loadReports()} (LRS).
 *
 * <p>It behaves as real control planes do; the package documentation, "FakeAdsServer's protocol",
 * says exactly how. Thread-safe. A daemon thread writes the responses in the order they were
 * produced; a failure inside the server is kept in {@link #unexpectedErrors()}, never thrown.
 */
public final class FakeAdsServer implements AutoCloseable {
  /** The type URL of envoy v3 {@link Cluster} (CDS). */
  public static final String CLUSTER_TYPE_URL = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  /** The type URL of envoy v3 {@link ClusterLoadAssignment} (EDS). */
  public static final String ENDPOINTS_TYPE_URL = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
  /** The type URL of envoy v3 {@link Listener} (LDS). */
  public static final String LISTENER_TYPE_URL = "type.googleapis.com/envoy.config.listener.v3.Listener";
  /** The type URL of envoy v3 {@link RouteConfiguration} (RDS). */
  public static final String ROUTE_TYPE_URL = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  private final Transport transport;
  private final Monitor monitor = new Monitor();
  private final UnexpectedErrors errors = new UnexpectedErrors(monitor);
  private final ServedResources served = new ServedResources(
      Map.of(CLUSTER_TYPE_URL, true, LISTENER_TYPE_URL, true, ENDPOINTS_TYPE_URL, false, ROUTE_TYPE_URL, false));
  private final OpenStreams streams = new OpenStreams(monitor);
  private final RequestLog requests = new RequestLog(monitor);
  private final ResponseSender sender = new ResponseSender(monitor, errors);
  private final FaultInjector faults = new FaultInjector(monitor, streams, sender);
  private final LoadReportSink loadReports = new LoadReportSink();
  private final AdsService ads = new AdsService(monitor, served, streams, requests, sender, errors);
  private final ServerLifecycle lifecycle;

  private FakeAdsServer(Transport transport) {
    this.transport = transport;
    this.lifecycle =
        new ServerLifecycle(transport, List.of(ads, loadReports.service()), monitor, streams, sender, errors);
  }

  /**
   * A server on 127.0.0.1, on a free port chosen at the first start; not started yet.
   *
   * @return the server
   */
  public static FakeAdsServer loopback() {
    return loopback(0);
  }

  /**
   * A server on 127.0.0.1:{@code port} (0: chosen at the first start); not started yet.
   *
   * @param port in [0, 65535]
   * @return the server
   * @throws IllegalArgumentException if {@code port} is out of range
   */
  public static FakeAdsServer loopback(int port) {
    return new FakeAdsServer(new LoopbackTransport(port));
  }

  /**
   * A server in process under a fresh name; not started yet. See {@link #inProcess(String)}.
   *
   * @return the server
   */
  public static FakeAdsServer inProcess() {
    return inProcess("fake-ads-" + UUID.randomUUID());
  }

  /**
   * A server in process under {@code name}; not started yet. A client on {@link
   * #newClientChannel()} reaches it, and so does jxds, which dials a bootstrap's {@code server_uri}
   * {@code inprocess:NAME} with {@code io.grpc:grpc-inprocess}; grpc-java's xDS resolves no such
   * target and needs {@link #loopback()}.
   *
   * @param name the in-process name clients dial
   * @return the server
   */
  public static FakeAdsServer inProcess(String name) {
    return new FakeAdsServer(new InProcessTransport(name));
  }

  /**
   * A server on the unix domain socket {@code path} (as istio-agent serves ADS); not started yet.
   * Clients dial {@code unix:///ABSOLUTE_PATH}. The socket file is created at start and removed at
   * stop; Linux limits its path to 107 bytes.
   *
   * @param path where the socket file goes; its directory must exist, the file must not
   * @return the server
   * @throws UnsupportedOperationException if {@link #unixSocketsSupported()} is false
   */
  public static FakeAdsServer unixSocket(Path path) {
    return new FakeAdsServer(new UnixSocketTransport(path));
  }

  /**
   * Whether gRPC can serve and dial unix domain sockets here (Linux with grpc-netty's epoll).
   *
   * @return true where {@link #unixSocket} works
   */
  public static boolean unixSocketsSupported() {
    return UnixSocketTransport.supported();
  }

  /**
   * Serves a loopback server over these credentials from the next {@link #start()} on, e.g. {@code
   * TlsServerCredentials} for (mutual) TLS to the control plane (gRFC A65). Default: plaintext.
   *
   * @param credentials the server's credentials
   * @return this server
   */
  public FakeAdsServer serverCredentials(ServerCredentials credentials) {
    lifecycle.credentials(credentials);
    return this;
  }

  /**
   * Starts serving, unless running; after {@link #stop()}, on the same port or name with the same
   * resources and versions (a control-plane restart).
   *
   * @return this server
   * @throws UncheckedIOException if the port cannot be bound
   */
  public FakeAdsServer start() {
    lifecycle.start();
    return this;
  }

  /**
   * Stops serving: open streams are cut at once, held or delayed responses dropped. What it serves
   * and recorded stays, so {@link #start()} resumes. Does nothing if not running.
   */
  public void stop() {
    lifecycle.stop();
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /**
   * Whether it is serving.
   *
   * @return true between a start and a stop
   */
  public boolean isRunning() {
    return lifecycle.isRunning();
  }

  /**
   * The loopback port (the real one once started, also after a stop).
   *
   * @return the port
   * @throws IllegalStateException for another transport, or port 0 before the first start
   */
  public int port() {
    return transport.port();
  }

  /**
   * The address a client dials: {@code 127.0.0.1:PORT}, {@code unix:///ABSOLUTE_PATH} or {@code
   * inprocess:NAME} (which jxds dials with {@code InProcessChannelBuilder}; grpc-java's xDS does not).
   *
   * @return the server URI, as a bootstrap's {@code server_uri} holds it
   */
  public String serverUri() {
    return transport.serverUri();
  }

  /**
   * A new plaintext channel to this server; the caller shuts it down.
   *
   * @return the channel
   */
  public ManagedChannel newClientChannel() {
    return transport.newClientChannel();
  }

  /**
   * A gRPC xDS bootstrap pointing at this server: plaintext, node id {@value
   * FakeAdsBootstrap#DEFAULT_NODE_ID} unless set; {@code build()} gives its JSON.
   *
   * @return a new builder, for the node, server features and jxds knobs
   */
  public FakeAdsBootstrap bootstrap() {
    return new FakeAdsBootstrap(serverUri());
  }

  /**
   * Replaces every resource of {@code typeUrl} (any type URL) with {@code resources}, bumps the
   * type's version and pushes to every subscribed stream. An {@link com.google.protobuf.Any} is
   * served as is (to serve a wrong type on purpose); any other message must pack to {@code typeUrl}.
   *
   * @param typeUrl the resources' type URL
   * @param resources the resources by name
   * @throws IllegalArgumentException if a message packs to another type URL
   */
  public void setResources(String typeUrl, Map<String, ? extends Message> resources) {
    var packed = ServedResources.pack(typeUrl, resources);
    ads.publish(served -> served.set(typeUrl, packed));
  }

  /**
   * Adds or replaces the given resources of {@code typeUrl}, keeping the others; bumps and pushes.
   *
   * @param typeUrl the resources' type URL
   * @param resources the resources by name
   * @throws IllegalArgumentException if a message packs to another type URL
   */
  public void putResources(String typeUrl, Map<String, ? extends Message> resources) {
    var packed = ServedResources.pack(typeUrl, resources);
    ads.publish(served -> served.put(typeUrl, packed));
  }

  /**
   * Removes the named resources of {@code typeUrl} (unknown names are ignored); bumps and pushes.
   *
   * @param typeUrl the resources' type URL
   * @param names the names to remove
   */
  public void removeResources(String typeUrl, String... names) {
    List<String> toRemove = List.of(names);
    ads.publish(served -> served.remove(typeUrl, toRemove));
  }

  /**
   * Replaces all clusters with these, keyed by {@code name}.
   *
   * @param clusters the clusters to serve
   */
  public void setClusters(Cluster... clusters) {
    setResources(CLUSTER_TYPE_URL, byName(List.of(clusters), Cluster::getName));
  }

  /**
   * Adds or replaces these clusters, keyed by {@code name}, keeping the others.
   *
   * @param clusters the clusters to add or replace
   */
  public void putClusters(Cluster... clusters) {
    putResources(CLUSTER_TYPE_URL, byName(List.of(clusters), Cluster::getName));
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
    setResources(ENDPOINTS_TYPE_URL, byName(List.of(assignments), ClusterLoadAssignment::getClusterName));
  }

  /**
   * Adds or replaces these endpoint assignments, keyed by {@code cluster_name}.
   *
   * @param assignments the assignments to add or replace
   */
  public void putEndpoints(ClusterLoadAssignment... assignments) {
    putResources(ENDPOINTS_TYPE_URL, byName(List.of(assignments), ClusterLoadAssignment::getClusterName));
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
    setResources(LISTENER_TYPE_URL, byName(List.of(listeners), Listener::getName));
  }

  /**
   * Replaces all route configurations with these, keyed by {@code name}.
   *
   * @param routes the route configurations to serve
   */
  public void setRoutes(RouteConfiguration... routes) {
    setResources(ROUTE_TYPE_URL, byName(List.of(routes), RouteConfiguration::getName));
  }

  /**
   * The current version of {@code typeUrl}.
   *
   * @param typeUrl the type URL
   * @return the version last served, or {@code ""} if the type has never been set
   */
  public String version(String typeUrl) {
    return monitor.get(() -> served.version(typeUrl));
  }

  /**
   * One resource's version as delta streams see it: its type's version when it last changed.
   *
   * @param typeUrl the resource's type URL
   * @param name the resource's name
   * @return its delta version, or {@code ""} if it does not exist
   */
  public String resourceVersion(String typeUrl, String name) {
    return monitor.get(() -> served.resourceVersion(typeUrl, name));
  }

  /**
   * What this server received: every request, classified; ACKs and NACKs; waits for them.
   *
   * @return this server's request log, the same for its life
   */
  public RequestLog requests() {
    return requests;
  }

  /**
   * The ADS streams open now: how many, and the names they subscribe to.
   *
   * @return this server's open streams, the same for its life
   */
  public OpenStreams streams() {
    return streams;
  }

  /**
   * The faults this server can inject: broken streams, held, delayed or raw responses.
   *
   * @return this server's fault injector, the same for its life
   */
  public FaultInjector faults() {
    return faults;
  }

  /**
   * The load reports (LRS) clients sent to this server, and what it asks of them.
   *
   * @return this server's load-report sink, the same for its life
   */
  public LoadReportSink loadReports() {
    return loadReports;
  }

  /**
   * Failures inside the server (never expected); the test bed and the extension check them.
   *
   * @return the failures, oldest first; empty when all is well
   */
  public List<Throwable> unexpectedErrors() {
    return errors.snapshot();
  }

  /** Records a failure inside the server; for the extension's own test. */
  void recordUnexpected(Throwable t) {
    errors.record(t);
  }
}
