package io.jxds.client;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.CertificateProvider;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import io.jxds.api.internal.decode.ClusterDecoder;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.internal.ClientInternals;
import io.jxds.client.internal.LiveClients;
import io.jxds.client.internal.XdstpName;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.WatcherRegistration;
import io.jxds.client.internal.lrs.LoadReportClient;
import io.jxds.client.internal.lrs.LoadStatsStore;
import io.jxds.client.internal.metrics.Telemetry;
import io.jxds.client.internal.metrics.XdsClientMetrics;
import io.jxds.client.internal.stream.AdsServer;
import io.jxds.client.internal.stream.AdsStreamController;
import io.jxds.client.internal.stream.AdsTransport;
import io.jxds.client.internal.stream.ServerChain;
import io.jxds.client.internal.tls.FileWatcherProvider;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jxds {@link XdsClient}: one ADS stream per control plane it uses (gRFC A71, A47), one
 * per-resource cache, and watchers called on their own executors. Build one with {@link
 * XdsClientBuilder}, or share one per bootstrap through {@link XdsClientPool}.
 *
 * <p>All state lives on the client's own {@link SynchronizationContext}; public methods check
 * their arguments on the caller's thread (a watcher registered twice for one resource is an
 * {@link IllegalArgumentException} there, never a failure inside the client) and return at once.
 */
public final class DefaultXdsClient implements XdsClient {
  private static final Logger log = LoggerFactory.getLogger(DefaultXdsClient.class);

  // The balancer reaches the load-report counters and the telemetry only through here.
  static {
    ClientInternals.install(new ClientInternals.Access() {
      @Override
      public @Nullable LoadStatsStore loadStats(XdsClient client, String cluster) {
        DefaultXdsClient c = unwrap(client);
        return c == null ? null : c.loadReportsOf(cluster).store();
      }

      @Override
      public @Nullable Telemetry telemetry(XdsClient client) {
        DefaultXdsClient c = unwrap(client);
        return c == null ? null : c.telemetry;
      }
    });
  }

  private final String nodeId;
  private final Node node;
  private final SynchronizationContext syncContext;
  private final List<AdsTransport> transports;
  private final @Nullable ScheduledExecutorService ownedScheduler;
  private final ResourceCache cache;
  /** The chains (gRFC A71) of the distinct server lists (gRFC A47), over shared streams. */
  private final Federation federation;
  /** Registrations by (type, name, watcher identity): where caller threads meet. */
  private final ConcurrentMap<WatchKey, WatcherRegistration<?>> registrations = new ConcurrentHashMap<>();
  /** One descriptor per type URL, checked on the caller's thread. */
  private final ConcurrentMap<String, ResourceType<?>> types = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<String, FileWatcherProvider> certificateProviders;
  /** {@link ResourceTypes#CLUSTER}, validating certificate-provider names against the bootstrap. */
  private final ResourceType<ClusterUpdate> clusterType;
  // Set once by XdsClientPool before the client is handed out: its leases decide when it closes.
  private volatile boolean pooled;
  private volatile XdsClientStatus status;
  /** gRFC A78's {@code connected} gauge: each distinct server's target and connection, as last published. */
  private volatile Map<String, Boolean> serverConnections = Map.of();
  /** Owned by the sync context: a server's connection changed since {@link #serverConnections} was built. */
  private boolean connectionsChanged = true;
  /** Owned by the sync context. */
  private boolean statusRebuildQueued;
  /** This client's entry in the process-wide list CSDS reports. */
  private final long liveClientId;
  private final Telemetry telemetry;
  private final XdsClientMetrics metrics;

  /**
   * @param adsServers the top-level servers, the first serving (gRFC A71)
   * @param authorities gRFC A47: the bootstrap's authorities and their servers (empty: the
   *     top-level ones; the same server as one instance wherever it is listed), or null for a
   *     client without a bootstrap, whose servers serve every name
   * @param lrsChannel the first top-level server's channel for load reports; null: counted, never
   *     sent (an authority's go to its first server's {@link AdsServer#lrsChannel()})
   * @param telemetry where metrics go
   */
  DefaultXdsClient(
      List<AdsServer> adsServers,
      @Nullable Map<String, List<AdsServer>> authorities,
      Map<String, FileWatcherProvider> certificateProviders,
      Node node,
      Duration resourceTimeout,
      Duration cacheRetention,
      boolean nodeOnFirstRequestOnly,
      ScheduledExecutorService scheduler,
      @Nullable ScheduledExecutorService ownedScheduler,
      Clock clock,
      LongSupplier ticker,
      RandomGenerator random,
      @Nullable Channel lrsChannel,
      Telemetry telemetry) {
    this.nodeId = node.getId();
    this.node = node;
    this.certificateProviders = Map.copyOf(certificateProviders);
    this.clusterType = clusterTypeChecking(this.certificateProviders.keySet());
    this.ownedScheduler = ownedScheduler;
    this.syncContext =
        new SynchronizationContext(
            (thread, e) -> log.error("bug: uncaught exception in xDS client (node id \"{}\")", nodeId, e));
    this.status = new XdsClientStatus(false, nodeId, List.of());
    // CSDS names the client by its primary server (the first of xds_servers); gRFC A78's metrics
    // name the server each one is about.
    String primaryTarget = adsServers.get(0).transport().target();
    this.telemetry = telemetry;
    this.metrics = XdsClientMetrics.create(telemetry, () -> serverConnections, () -> status);
    // gRFC A71: each list's servers in order; its chain decides which of them serve. Built first,
    // so that the cache has them from the start; the controllers then get the cache.
    this.federation = new Federation(adsServers, authorities, servers -> new Federation.Lane(
        servers,
        new ServerChain(syncContext),
        new LoadReportClient(servers == adsServers ? lrsChannel : servers.get(0).lrsChannel(),
            servers.get(0).transport().target(), node, syncContext, scheduler, ticker, random)));
    this.cache =
        new ResourceCache(
            nodeId,
            resourceTimeout,
            cacheRetention,
            syncContext,
            scheduler,
            clock,
            ticker,
            federation.top().chain(),
            new CacheListener());
    federation.start(cache, (id, server, filtered) -> new AdsStreamController(
        id, server, cache, node, nodeOnFirstRequestOnly, syncContext, scheduler, ticker, random, filtered),
        this::connectionChanged);
    this.transports = federation.controllers().stream().map(AdsStreamController::transport).toList();
    this.liveClientId = LiveClients.register(new LiveClients.Client() {
      @Override
      public Node node() {
        return DefaultXdsClient.this.node;
      }

      @Override
      public String serverTarget() {
        return primaryTarget;
      }

      @Override
      public XdsClientStatus status() {
        return DefaultXdsClient.this.status(); // with federation, every authority's resources (one cache)
      }
    });
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException if the client is closed
   */
  @Override
  @SuppressWarnings("unchecked")
  public <T> WatchHandle watch(ResourceType<T> requestedType, String name, ResourceWatcher<T> watcher,
      Executor executor) {
    Objects.requireNonNull(requestedType, "type");
    // gRFC A29: a cluster naming a certificate provider the bootstrap lacks is NACKed; the shared
    // CLUSTER descriptor cannot know this client's bootstrap, so the client uses its own.
    ResourceType<T> type = requestedType == ResourceTypes.CLUSTER ? (ResourceType<T>) clusterType : requestedType;
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(watcher, "watcher");
    Objects.requireNonNull(executor, "executor");
    if (closed.get()) {
      throw new IllegalStateException("xDS client is closed");
    }
    if (XdstpName.matches(name)) {
      // gRFC A47: the canonical name, served by its authority's client (one map lookup).
      String canonical;
      try {
        canonical = XdstpName.canonical(name, type.typeUrl());
      } catch (IllegalArgumentException e) {
        return failedWatch(type, name, "INVALID_ARGUMENT: " + e.getMessage(), watcher, executor);
      }
      String authority = XdstpName.authority(canonical);
      Federation.Lane lane = federation.laneOf(authority);
      if (lane == null) {
        String why = "INVALID_ARGUMENT: authority \"" + authority + "\" is not in the bootstrap's authorities";
        return failedWatch(type, name, why, watcher, executor);
      }
      return register(type, canonical, lane.chain(), watcher, executor);
    }
    return register(type, name, federation.top().chain(), watcher, executor);
  }

  private <T> WatchHandle register(ResourceType<T> type, String name, ServerChain chain, ResourceWatcher<T> watcher,
      Executor executor) {
    ResourceType<?> known = types.putIfAbsent(type.typeUrl(), type);
    if (known != null && known != type) {
      throw new IllegalArgumentException(
          "type URL " + type.typeUrl() + " is already watched with another ResourceType: " + known);
    }
    WatchKey key = new WatchKey(type.typeUrl(), name, watcher);
    WatcherRegistration<T> registration = new WatcherRegistration<>(watcher, executor);
    if (registrations.putIfAbsent(key, registration) != null) {
      throw new IllegalArgumentException(
          "watcher " + watcher + " already watches " + type.shortName() + " resource \"" + name + "\"");
    }
    if (closed.get()) {
      // close() ran since the check above and may have missed this registration in its sweep.
      registration.cancel();
      registrations.remove(key, registration);
      throw new IllegalStateException("xDS client is closed");
    }
    syncContext.execute(() -> cache.addWatcher(type, name, chain, registration));
    return () -> {
      if (registration.cancel()) {
        registrations.remove(key, registration);
        syncContext.execute(() -> cache.removeWatcher(type, name, registration));
      }
    };
  }

  @Override
  public XdsClientStatus status() {
    return status;
  }

  /**
   * Where the load reports of cluster {@code name} go: with federation (gRFC A47), the first server
   * of an {@code xdstp:} name's authority; the first top-level server for any other name, or an
   * authority the bootstrap lacks.
   */
  private LoadReportClient loadReportsOf(String name) {
    Federation.Lane lane = XdstpName.matches(name) ? federation.laneOf(XdstpName.authority(name)) : null;
    return (lane == null ? federation.top() : lane).loadReports();
  }

  /** A watch that cannot be served: its watcher hears why at once (UNAVAILABLE, gRFC A54), nothing is requested. */
  private <T> WatchHandle failedWatch(
      ResourceType<T> type, String name, String why, ResourceWatcher<T> watcher, Executor executor) {
    Status status = Status.UNAVAILABLE.withDescription(
        why + " [" + type.shortName() + " resource \"" + name + "\", node id \"" + nodeId + "\"]");
    log.warn("{} resource \"{}\" cannot be watched: {}", type.shortName(), name, why);
    executor.execute(() -> watcher.onError(status));
    return () -> {};
  }

  /**
   * The bootstrap's certificate providers (gRFC A29), by instance name; their files are re-read
   * until the client closes.
   *
   * @return the providers, empty without any
   */
  @Override
  public Map<String, CertificateProvider> certificateProviders() {
    return Map.copyOf(certificateProviders);
  }

  private static ResourceType<ClusterUpdate> clusterTypeChecking(Set<String> instances) {
    return ResourceType.of(
        ResourceTypes.CLUSTER_TYPE_URL,
        ResourceTypes.CLUSTER.shortName(),
        ResourceTypes.CLUSTER.absenceMeansDeletion(),
        Cluster.class,
        Cluster::getName,
        c -> ClusterDecoder.decode(c, instances));
  }

  /**
   * The node id this client identifies itself with.
   *
   * @return the {@code node.id} sent to the control plane, possibly empty
   */
  public String nodeId() {
    return nodeId;
  }

  /**
   * Closes the stream, cancels every timer and stops every watcher: no callback starts after this
   * returns (one already running may finish). Idempotent.
   *
   * @throws IllegalStateException if the client belongs to an {@link XdsClientPool}: closing it would
   *     pull it from under every other lease holder, so release your {@link XdsClientPool.Lease}
   */
  @Override
  public void close() {
    if (pooled) {
      throw new IllegalStateException(
          "this xDS client is shared by an XdsClientPool: close its XdsClientPool.Lease instead");
    }
    closeNow();
  }

  /** The pool's mark: from now on only {@link #closeNow()} closes this client. */
  void markPooled() {
    pooled = true;
  }

  /** Closes the client whoever owns it (the pool, when the last lease is gone). */
  void closeNow() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LiveClients.unregister(liveClientId);
    for (WatcherRegistration<?> r : registrations.values()) {
      r.cancel();
    }
    registrations.clear();
    // The rest runs on the sync context, after whatever it is doing now, so that nothing there
    // meets a closed channel or a shut-down scheduler half way. Each step runs even if one before
    // it fails: a leaked channel or timer thread would outlive the client for good.
    syncContext.execute(
        () -> {
          for (Federation.Lane lane : federation.lanes()) {
            closeStep("load reports", lane.loadReports()::shutdown);
          }
          closeStep("metrics", metrics::close);
          closeStep("stream", federation::shutdown);
          closeStep("cache", cache::shutdown);
          status = new XdsClientStatus(false, nodeId, List.of());
          for (AdsTransport transport : transports) {
            closeStep("transport", transport::shutdown);
          }
          for (FileWatcherProvider p : certificateProviders.values()) {
            closeStep("certificate provider", p::close);
          }
          if (ownedScheduler != null) {
            closeStep("timer thread", ownedScheduler::shutdownNow);
          }
        });
  }

  private void closeStep(String what, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      log.warn("closing xDS client (node id \"{}\"): shutting down the {} failed", nodeId, what, e);
    }
  }

  private static @Nullable DefaultXdsClient unwrap(XdsClient client) {
    XdsClient c = client instanceof XdsClientPool.Lease lease ? lease.client() : client;
    return c instanceof DefaultXdsClient d ? d : null;
  }

  /** Registered watchers not yet cancelled through their handle; for tests. */
  int registrationCount() {
    return registrations.size();
  }

  /**
   * Whether the client is closed.
   *
   * @return true once {@link #close()} was called, or the pool closed it
   */
  public boolean isClosed() {
    return closed.get();
  }

  private void connectionChanged() {
    connectionsChanged = true;
    publishStatus();
  }

  // Coalesced: many changes in one drain of the sync context make one snapshot, built after them.
  private void publishStatus() {
    if (statusRebuildQueued) {
      return;
    }
    statusRebuildQueued = true;
    syncContext.execute(
        () -> {
          statusRebuildQueued = false;
          rebuildStatus();
        });
  }

  // Cheap when few resources changed: the cache reuses each unchanged type's status list.
  private void rebuildStatus() {
    if (!closed.get()) {
      status = new XdsClientStatus(federation.isConnected(), nodeId, cache.statuses());
      if (connectionsChanged) {
        connectionsChanged = false;
        Map<String, Boolean> connections = new LinkedHashMap<>();
        for (AdsStreamController c : federation.controllers()) {
          connections.put(c.target(), c.isConnected());
        }
        serverConnections = Collections.unmodifiableMap(connections);
      }
    }
  }

  /** What the cache tells the client: status snapshots and metrics. */
  private final class CacheListener implements ResourceCache.Listener {
    @Override
    public void stateChanged() {
      publishStatus();
    }

    @Override
    public void publishStatusNow() {
      rebuildStatus();
    }

    @Override
    public void resourcesValidated(String server, String typeUrl, int valid, int invalid) {
      metrics.resourceUpdates(server, typeUrl, valid, invalid);
    }

    @Override
    public void serverFailed(String server) {
      metrics.serverFailure(server);
    }
  }

  /** A watcher's identity for one resource: the same object may watch many resources. */
  private static final class WatchKey {
    private final String typeUrl;
    private final String name;
    private final Object watcher;

    WatchKey(String typeUrl, String name, Object watcher) {
      this.typeUrl = typeUrl;
      this.name = name;
      this.watcher = watcher;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof WatchKey k && k.watcher == watcher && k.typeUrl.equals(typeUrl) && k.name.equals(name);
    }

    @Override
    public int hashCode() {
      return (typeUrl.hashCode() * 31 + name.hashCode()) * 31 + System.identityHashCode(watcher);
    }
  }
}
