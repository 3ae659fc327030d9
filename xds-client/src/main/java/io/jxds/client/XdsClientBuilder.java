package io.jxds.client;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.jxds.client.bootstrap.Authority;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.CertificateProviderSpec;
import io.jxds.client.bootstrap.ServerInfo;
import io.jxds.client.internal.BuilderInternals;
import io.jxds.client.internal.DurationFormat;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.client.internal.metrics.Telemetry;
import io.jxds.client.internal.stream.AdsServer;
import io.jxds.client.internal.stream.AdsTransport;
import io.jxds.client.internal.stream.GrpcAdsTransport;
import io.jxds.client.internal.stream.InProcessTarget;
import io.jxds.client.internal.tls.FileWatcherProvider;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link DefaultXdsClient} for programmatic use and tests. The caller owns the client and
 * closes it.
 *
 * <pre>{@code
 * DefaultXdsClient client = XdsClientBuilder.forTarget("localhost:18000", InsecureChannelCredentials.create())
 *     .node(Node.newBuilder().setId("my-app").build())
 *     .build();
 * }</pre>
 *
 * <p>Defaults: does-not-exist timer 15 s, the value of a resource nobody watches cached for 5 min,
 * a daemon scheduler thread of the client's own, the system UTC clock and {@code System.nanoTime},
 * {@code node} on every request.
 */
@NullMarked // with the package once DefaultXdsClient is annotated
public final class XdsClientBuilder {
  // The transport seam is reachable from outside this package only through BuilderInternals.
  static {
    BuilderInternals.install(XdsClientBuilder::transport);
  }

  static final String NO_OVERPROVISIONING = "envoy.lb.does_not_support_overprovisioning";
  static final String RESOURCE_IN_SOTW = "xds.config.resource-in-sotw";
  private static final List<String> CLIENT_FEATURES = List.of(NO_OVERPROVISIONING, RESOURCE_IN_SOTW);

  private final String target;
  private final @Nullable ChannelCredentials credentials;
  private final @Nullable Channel channel;
  private @Nullable AdsTransport transport;
  private Node node = Node.getDefaultInstance();
  private Duration resourceTimeout = Bootstrap.DEFAULT_RESOURCE_TIMEOUT;
  private Duration cacheRetention = Bootstrap.DEFAULT_CLIENT_RETENTION;
  private boolean ignoreResourceDeletion;
  private boolean delta;
  private boolean nodeOnFirstRequestOnly;
  private final List<Fallback> fallbacks = new ArrayList<>();
  private @Nullable ScheduledExecutorService scheduler;
  private @Nullable Clock clock;
  private @Nullable LongSupplier ticker;
  private @Nullable RandomGenerator random;
  private Map<String, CertificateProviderSpec> certificateProviders = Map.of();
  private @Nullable Telemetry telemetry;
  /**
   * Set by {@link #fromBootstrap}: its {@code authorities} make the client federated (gRFC A47);
   * without a bootstrap ({@link #forTarget}, {@link #forChannel}) the one server serves every name.
   */
  private @Nullable Bootstrap bootstrap;

  private XdsClientBuilder(String target, @Nullable ChannelCredentials credentials, @Nullable Channel channel) {
    this.target = target;
    this.credentials = credentials;
    this.channel = channel;
  }

  /**
   * A client that opens its own channel to {@code target} (a gRPC target string) and closes it.
   * Its ADS stream waits for that channel to connect, and early in an outage the client cuts the
   * channel's reconnect backoff short a few times, so a restarted control plane is found within
   * about a second. Without a bootstrap there are no {@code authorities} (gRFC A47): this one server
   * serves every name, {@code xdstp:} names of any authority included.
   *
   * @param target a gRPC target string, e.g. {@code dns:///xds.example.com:443}
   * @param credentials the channel's credentials
   * @return a builder
   */
  public static XdsClientBuilder forTarget(String target, ChannelCredentials credentials) {
    return new XdsClientBuilder(
        Objects.requireNonNull(target, "target"), Objects.requireNonNull(credentials, "credentials"), null);
  }

  /**
   * A client on a channel the caller owns (for example an in-process channel); never shut down,
   * and its reconnect backoff is left alone. On a {@link io.grpc.ManagedChannel} the ADS stream
   * waits for the channel to connect (its state is watched to report failures); on any other
   * {@link Channel} a stream fails as soon as connecting fails and the client retries with backoff.
   * As with {@link #forTarget}, the channel's server serves every name, {@code xdstp:} ones included.
   *
   * @param channel the channel to the control plane
   * @return a builder
   */
  public static XdsClientBuilder forChannel(Channel channel) {
    Objects.requireNonNull(channel, "channel");
    return new XdsClientBuilder(channel.authority(), null, channel);
  }

  /**
   * A client configured from a parsed bootstrap: its servers (the first, then the others as
   * fallbacks, gRFC A71), node and jxds knobs, and its {@code authorities} (gRFC A47): an {@code
   * xdstp:} name whose authority the bootstrap does not list, none listed included, fails its watch.
   *
   * @param bootstrap the bootstrap, e.g. from {@link io.jxds.client.bootstrap.BootstrapLoader}
   * @return a builder, which may still override what the bootstrap set
   */
  public static XdsClientBuilder fromBootstrap(Bootstrap bootstrap) {
    ServerInfo server = bootstrap.server();
    XdsClientBuilder builder = forTarget(server.serverUri(), server.channelCredentials().toChannelCredentials());
    builder.addFallbacks(bootstrap.servers());
    builder.bootstrap = bootstrap;
    return builder
        .node(bootstrap.node())
        .ignoreResourceDeletion(server.ignoreResourceDeletion())
        .deltaXds(server.delta())
        .resourceTimeout(bootstrap.resourceTimeout())
        .cacheRetention(bootstrap.clientRetention())
        .certificateProviders(bootstrap.certificateProviders());
  }

  /**
   * Who this client is; by default a node with an empty id. {@code user_agent_name} is filled in
   * when unset, and gRPC's {@code client_features} are added to those the node lists.
   *
   * @param node the {@code node} sent to the control plane
   * @return this builder
   */
  public XdsClientBuilder node(Node node) {
    this.node = Objects.requireNonNull(node, "node");
    return this;
  }

  /**
   * How long a watched resource may stay unanswered before it does not exist (default 15 s).
   *
   * @param timeout positive
   * @return this builder
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  public XdsClientBuilder resourceTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("resourceTimeout must be positive, got " + DurationFormat.format(timeout));
    }
    this.resourceTimeout = timeout;
    return this;
  }

  /**
   * How long the value of a resource stays cached after its last watcher left (default 5 min;
   * zero: forgotten at once). Its name leaves the wire at once either way (the next request of
   * its type leaves it out; the last name of a type stays in the request that named it until
   * another request of the type or a new stream replaces it); a watcher that comes back within
   * this time gets the cached value at once, even with the control plane away, and the name is
   * requested again.
   *
   * @param retention zero or positive
   * @return this builder
   * @throws IllegalArgumentException if {@code retention} is negative
   */
  public XdsClientBuilder cacheRetention(Duration retention) {
    if (retention.isNegative()) {
      throw new IllegalArgumentException(
          "cacheRetention must not be negative, got " + DurationFormat.format(retention));
    }
    this.cacheRetention = retention;
    return this;
  }

  /**
   * gRFC A53: a cached CDS resource missing from a response is kept (default false). It applies to
   * the primary and to the fallbacks added with {@link #addFallbackServer}; a bootstrap's servers
   * each have their own ({@code server_features}), which applies while that server serves.
   *
   * @param ignore whether to keep it
   * @return this builder
   */
  public XdsClientBuilder ignoreResourceDeletion(boolean ignore) {
    this.ignoreResourceDeletion = ignore;
    return this;
  }

  /**
   * Speaks delta (incremental) xDS, {@code DeltaAggregatedResources}, instead of state of the world
   * (default false; in a bootstrap, server feature {@value ServerInfo#DELTA}). Requests then name
   * only the names subscribed or unsubscribed since the last one, and responses carry only what
   * changed: what a process watching thousands of clusters needs. The server must serve delta ADS
   * (Envoy's go-control-plane, java-control-plane, istiod do).
   *
   * @param delta whether to speak delta xDS
   * @return this builder
   */
  public XdsClientBuilder deltaXds(boolean delta) {
    this.delta = delta;
    return this;
  }

  /**
   * Adds a fallback control plane after the primary and those added before (gRFC A71, xDS
   * fallback): when the server in use cannot be reached and some watched resource has nothing
   * cached, the client connects to the next one; it keeps retrying the servers before it and goes
   * back to the first of them that answers, closing the fallback's stream. Cached data from any
   * server stays in use. The client opens and closes the fallback's channel.
   *
   * @param target a gRPC target string
   * @param credentials the channel credentials for it
   * @param delta whether to speak delta xDS to it (see {@link #deltaXds})
   * @return this builder
   */
  public XdsClientBuilder addFallbackServer(String target, ChannelCredentials credentials, boolean delta) {
    fallbacks.add(new Fallback(Objects.requireNonNull(target, "target"),
        Objects.requireNonNull(credentials, "credentials"), null, delta, null));
    return this;
  }

  /** Not API: a fallback server on a transport of the test's (see {@link #addFallbackServer}). */
  XdsClientBuilder addFallbackTransport(AdsTransport transport, boolean delta) {
    fallbacks.add(new Fallback(transport.target(), null, transport, delta, null));
    return this;
  }

  /** The servers after the first of a bootstrap's list, as fallbacks, each with its own features. */
  private void addFallbacks(List<ServerInfo> servers) {
    for (ServerInfo s : servers.subList(1, servers.size())) {
      fallbacks.add(new Fallback(s.serverUri(), s.channelCredentials().toChannelCredentials(), null, s.delta(),
          s.ignoreResourceDeletion()));
    }
  }

  /**
   * Sends {@code node} only on each stream's first request. Off by default: java-control-plane
   * hashes the node of every request, and without it silently stops answering.
   *
   * @param firstOnly whether later requests leave {@code node} out
   * @return this builder
   */
  public XdsClientBuilder sendNodeOnFirstRequestOnly(boolean firstOnly) {
    this.nodeOnFirstRequestOnly = firstOnly;
    return this;
  }

  /**
   * Runs the client's timers; the caller owns it. Default: a daemon thread the client owns.
   *
   * @param scheduler the timers' executor, not shut down by the client
   * @return this builder
   */
  public XdsClientBuilder scheduler(ScheduledExecutorService scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /**
   * Stamps update times (default: system UTC). Without a {@link #ticker}, a clock set here (a
   * test's manual clock) also measures elapsed time.
   *
   * @param clock the wall clock
   * @return this builder
   */
  public XdsClientBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Monotonic nanoseconds that measure how long an ADS stream lived, which shortens the wait
   * before the next one (default {@code System::nanoTime}; with a test's manual scheduler, pass
   * its manual time too, e.g. {@code FakeClock.ticker()}).
   *
   * @param ticker monotonic time in nanoseconds
   * @return this builder
   */
  public XdsClientBuilder ticker(LongSupplier ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * The certificate providers (gRFC A29) the client offers through
   * {@link DefaultXdsClient#certificateProviders()}; a cluster whose TLS context names another
   * instance is NACKed. Their files are read when the client is built and every
   * {@code refresh_interval} after, on the client's timer thread, until it closes. Default: none
   * (every TLS cluster is NACKed).
   *
   * @param providers by instance name
   * @return this builder
   */
  public XdsClientBuilder certificateProviders(Map<String, CertificateProviderSpec> providers) {
    this.certificateProviders = Map.copyOf(providers);
    return this;
  }

  /**
   * Backoff jitter (default: a new {@link Random}).
   *
   * @param random the source of jitter; a seeded one makes backoff reproducible
   * @return this builder
   */
  public XdsClientBuilder random(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
    return this;
  }

  /**
   * Records the client's metrics (gRFC A78's {@code grpc.xds_client.*}) and those of the balancers
   * that use it into {@code openTelemetry}. Without this call, the global OpenTelemetry is used if
   * the application set one before the client was built; otherwise nothing is recorded.
   * OpenTelemetry is an optional dependency: a program that never calls this needs no
   * OpenTelemetry jar.
   *
   * @param openTelemetry where metrics go
   * @return this builder
   */
  public XdsClientBuilder openTelemetry(OpenTelemetry openTelemetry) {
    this.telemetry = Telemetry.of(Objects.requireNonNull(openTelemetry, "openTelemetry"));
    return this;
  }

  /** Not API: the pool hands on the telemetry it was given (null: the global one, if set). */
  XdsClientBuilder telemetry(@Nullable Telemetry telemetry) {
    this.telemetry = telemetry;
    return this;
  }

  /** Not API: replaces the gRPC transport (tests, benchmarks). */
  XdsClientBuilder transport(AdsTransport transport) {
    this.transport = transport;
    return this;
  }

  /**
   * Builds a client from this builder's settings.
   *
   * @return a new client, which the caller closes
   */
  public DefaultXdsClient build() {
    ScheduledExecutorService owned = null;
    ScheduledExecutorService timers = scheduler;
    if (timers == null) {
      owned = newDaemonScheduler("jxds-xds-client-timer");
      timers = owned;
    }
    Node n = withClientFeatures(node.getUserAgentName().isEmpty()
        ? node.toBuilder().setUserAgentName(BootstrapParser.USER_AGENT_NAME).build()
        : node);
    AdsTransport ads = transport;
    Channel lrsChannel = null; // load reports go to the ADS server, on its channel
    if (ads == null) {
      if (channel != null) {
        ads = new GrpcAdsTransport(channel, null, target);
        lrsChannel = channel;
      } else {
        // forTarget set the credentials, forChannel the channel.
        ManagedChannel managed = ownedChannel(target, Objects.requireNonNull(credentials, "credentials"));
        ads = new GrpcAdsTransport(managed, managed, target);
        lrsChannel = managed;
      }
    }
    List<AdsServer> servers = new ArrayList<>();
    servers.add(new AdsServer(ads, delta, ignoreResourceDeletion));
    for (Fallback f : fallbacks) {
      AdsTransport given = f.transport(); // else addFallbackServer set the credentials
      Boolean ignore = f.ignoreResourceDeletion();
      servers.add(new AdsServer(
          given != null ? given : ownedTransport(f.target(), Objects.requireNonNull(f.credentials(), "credentials")),
          f.delta(), ignore != null ? ignore : ignoreResourceDeletion));
    }
    Map<String, FileWatcherProvider> providers = new LinkedHashMap<>();
    for (Map.Entry<String, CertificateProviderSpec> e : certificateProviders.entrySet()) {
      providers.put(e.getKey(), FileWatcherProvider.start(e.getKey(), e.getValue(), timers));
    }
    DefaultXdsClient client = new DefaultXdsClient(
        servers,
        bootstrap == null ? null : authorityServers(bootstrap, servers),
        providers,
        n,
        resourceTimeout,
        cacheRetention,
        nodeOnFirstRequestOnly,
        timers,
        owned,
        clock == null ? Clock.systemUTC() : clock,
        ticker != null ? ticker : clock == null ? System::nanoTime : nanoTicker(clock),
        random == null ? new Random() : random,
        lrsChannel,
        telemetry != null ? telemetry : Telemetry.global());
    return client;
  }

  /**
   * gRFC A47: each of the bootstrap's authorities with its servers (none: the top-level ones), a
   * bootstrap's client checking every {@code xdstp:} name's authority against them, none of them
   * included (a client without a bootstrap has one server list, which serves every name). A server
   * listed more than once, at the top level or by several authorities, is one {@link AdsServer}
   * (one channel, one stream) with its own features; the top-level ones are those already built.
   */
  private static Map<String, List<AdsServer>> authorityServers(Bootstrap bootstrap, List<AdsServer> top) {
    Map<ServerInfo, AdsServer> known = new HashMap<>();
    List<ServerInfo> topInfos = bootstrap.servers();
    for (int i = 0; i < topInfos.size() && i < top.size(); i++) {
      known.putIfAbsent(topInfos.get(i), top.get(i));
    }
    Map<String, List<AdsServer>> out = new LinkedHashMap<>();
    for (Map.Entry<String, Authority> e : bootstrap.authorities().entrySet()) {
      List<AdsServer> servers = new ArrayList<>();
      for (ServerInfo s : e.getValue().servers()) {
        servers.add(known.computeIfAbsent(s, XdsClientBuilder::ownedServer));
      }
      out.put(e.getKey(), servers);
    }
    return out;
  }

  /** An authority's server on a channel of its own, which also carries its load reports. */
  private static AdsServer ownedServer(ServerInfo s) {
    ManagedChannel managed = ownedChannel(s.serverUri(), s.channelCredentials().toChannelCredentials());
    return new AdsServer(new GrpcAdsTransport(managed, managed, s.serverUri()), s.delta(), s.ignoreResourceDeletion(),
        managed);
  }

  private static AdsTransport ownedTransport(String target, ChannelCredentials credentials) {
    ManagedChannel managed = ownedChannel(target, credentials);
    return new GrpcAdsTransport(managed, managed, target);
  }

  private static ManagedChannel ownedChannel(String target, ChannelCredentials credentials) {
    if (InProcessTarget.matches(target)) {
      return InProcessTarget.channel(target, credentials);
    }
    // Keepalive as grpc-java's xDS transport: detects a dead control plane behind a silent NAT.
    return Grpc.newChannelBuilder(target, credentials).keepAliveTime(5, TimeUnit.MINUTES).build();
  }

  /**
   * A fallback server as configured: a target to dial, or a transport given by a test; its own
   * {@code ignore_resource_deletion} (a bootstrap's), or null for the builder's.
   */
  private record Fallback(String target, @Nullable ChannelCredentials credentials, @Nullable AdsTransport transport,
      boolean delta, @Nullable Boolean ignoreResourceDeletion) {}

  private static LongSupplier nanoTicker(Clock clock) {
    return () -> {
      Instant now = clock.instant();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    };
  }

  /**
   * Adds the {@code node.client_features} a gRPC xDS client advertises, after any the node already
   * lists: {@value #NO_OVERPROVISIONING} (gRFC A27: {@code overprovisioning_factor} is ignored,
   * so a control plane must not rely on it) and {@value #RESOURCE_IN_SOTW} (resources may come
   * wrapped in {@code envoy.service.discovery.v3.Resource} in state-of-the-world responses, which
   * {@code ResourceType.unpack} unwraps).
   */
  static Node withClientFeatures(Node node) {
    Node.Builder b = null;
    for (String feature : CLIENT_FEATURES) {
      if (!node.getClientFeaturesList().contains(feature)) {
        b = b == null ? node.toBuilder() : b;
        b.addClientFeatures(feature);
      }
    }
    return b == null ? node : b.build();
  }

  static ScheduledExecutorService newDaemonScheduler(String name) {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true); // an application that forgets to close still exits
              return t;
            });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }
}
