package io.jxds.balancer.internal.resolver;

import io.grpc.Attributes;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.SynchronizationContext;
import io.jxds.api.XdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.PooledClientSource;
import io.jxds.balancer.internal.XdsClientLease;
import io.jxds.balancer.internal.manager.ClusterManagerLoadBalancerProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resolver of a routed target ({@code xds:///LISTENER}, ARCHITECTURE.md, "Routing each
 * call"): acquires the {@link XdsClient}, starts the {@link RouteSource} for the target's listener
 * and routes each call by the source's latest {@link RouteTable} ({@link TableRouter}, attached to
 * the channel by {@link ConfigSelectorAdapter}). Each resolution result has no addresses, the
 * cluster manager's config for the clusters with a reference ({@link ClusterRefs}), and the client
 * as {@link XdsClusterPolicy#XDS_CLIENT_ATTRIBUTE} for the {@code xds_cluster} trees below.
 *
 * <p>The first result goes out once the first table (or error) is in place, so no call is routed
 * before there is something to route by; later ones when the set of clusters changes. Without a
 * client (no bootstrap yet) the channel hears the reason as a resolution error and retries with
 * backoff through {@link #refresh()}. Its state lives on the channel's SynchronizationContext.
 */
final class XdsNameResolver extends NameResolver {
  private static final Logger logger = LoggerFactory.getLogger(XdsNameResolver.class);

  private final ListenerTarget target;
  private final Args args;
  private final SynchronizationContext syncContext;
  private final PooledClientSource pool;
  private final RouteSource.Factory sources;
  private final ListenerNaming naming;
  private final String authority;
  private Listener2 listener;
  private XdsClientLease lease;
  private RouteSource source;
  private ClusterRefs refs;
  private TableRouter router;
  private Attributes attributes;
  /** Whether the source told its first table or error: results go out from then on. */
  private boolean routing;
  private ResolutionResult lastResult;
  private String lastFailure;
  private boolean shutdown;

  /**
   * @param pool the client's source when the channel hands none in ({@link
   *     XdsClusterPolicy#XDS_CLIENT_ARG})
   * @param sources starts the route source, unless the channel hands one in ({@link
   *     RouteSource#FACTORY_ARG})
   * @param naming the listener name templates for a client the channel hands in, whose bootstrap
   *     jxds does not know; a pooled client's own bootstrap names the listener instead
   */
  XdsNameResolver(ListenerTarget target, Args args, PooledClientSource pool, RouteSource.Factory sources,
      ListenerNaming naming) {
    this.target = Objects.requireNonNull(target, "target");
    this.args = Objects.requireNonNull(args, "args");
    this.syncContext = args.getSynchronizationContext();
    this.pool = Objects.requireNonNull(pool, "pool");
    RouteSource.Factory handedIn = args.getArg(RouteSource.FACTORY_ARG);
    this.sources = handedIn != null ? handedIn : Objects.requireNonNull(sources, "sources");
    this.naming = Objects.requireNonNull(naming, "naming");
    String override = args.getOverrideAuthority();
    this.authority = override != null ? override : target.defaultServiceAuthority();
  }

  @Override
  public String getServiceAuthority() {
    return authority;
  }

  @Override
  public void start(Listener2 listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    syncContext.execute(this::resolve);
  }

  @Override
  public void refresh() {
    syncContext.execute(() -> {
      if (shutdown) {
        return;
      }
      if (source == null) {
        resolve(); // no client or no listener name before: try again (the channel's backoff paces this)
      } else if (lastResult != null) {
        listener.onResult2(lastResult);
      }
    });
  }

  @Override
  public void shutdown() {
    syncContext.execute(() -> {
      if (shutdown) {
        return;
      }
      shutdown = true;
      if (source != null) {
        source.shutdown();
        router.shutdown();
      }
      if (lease != null) {
        lease.release();
        lease = null;
      }
    });
  }

  private void resolve() {
    if (shutdown || source != null) {
      return;
    }
    if (lease == null) {
      try {
        lease = acquireClient();
      } catch (RuntimeException e) {
        // IllegalStateException from the pool names the bootstrap's problem; anything else the same way.
        failResolution(Status.UNAVAILABLE.withDescription(target.uri() + ": no xDS client: " + e.getMessage()));
        return;
      }
    }
    // gRFC A27, A47: the templates of the bootstrap the client was made from.
    StatusOr<String> listenerName = lease.bootstrap().map(ListenerNaming::of).orElse(naming).listenerName(target);
    if (!listenerName.hasValue()) {
      // gRFC A54: UNAVAILABLE to the channel, the original code in the text.
      Status invalid = listenerName.getStatus();
      failResolution(Status.UNAVAILABLE.withDescription(invalid.getCode() + ": " + invalid.getDescription()));
      return;
    }
    ConfigOrError methodConfig = args.getServiceConfigParser().parseServiceConfig(Map.of());
    if (methodConfig.getError() != null) {
      failResolution(Status.UNAVAILABLE.withDescription(
          target.uri() + ": the channel refused an empty service config: " + methodConfig.getError()));
      return;
    }
    lastFailure = null;
    refs = new ClusterRefs(syncContext, args.getScheduledExecutorService(), this::publish);
    router = new TableRouter(syncContext, refs, methodConfig.getConfig(), args.getServiceConfigParser(), target.uri());
    attributes = ConfigSelectorAdapter.attach(
        Attributes.newBuilder().set(XdsClusterPolicy.XDS_CLIENT_ATTRIBUTE, lease.client()).build(), router);
    logger.debug("{}: watching listener {} for authority {}", target.uri(), listenerName.getValue(), authority);
    source = sources.start(
        new RouteSource.Request(target.uri(), listenerName.getValue(), authority, lease.client(), syncContext,
            args.getScheduledExecutorService()),
        new Sink());
  }

  private XdsClientLease acquireClient() {
    XdsClient handedIn = args.getArg(XdsClusterPolicy.XDS_CLIENT_ARG);
    return handedIn != null ? XdsClientLease.borrowed(handedIn) : pool.acquire();
  }

  private void failResolution(Status status) {
    if (!status.getDescription().equals(lastFailure)) {
      logger.warn("{}", status.getDescription());
      lastFailure = status.getDescription();
    }
    listener.onError(status);
  }

  /** Pushes the clusters with a reference and the router; before the first table, nothing. */
  private void publish() {
    if (shutdown || !routing) {
      return;
    }
    Map<String, Object> clusters = new LinkedHashMap<>();
    for (String cluster : refs.clusters()) {
      clusters.put(cluster, Map.of());
    }
    Map<String, ?> serviceConfig = Map.of("loadBalancingConfig", List.of(
        Map.of(ClusterManagerLoadBalancerProvider.POLICY_NAME, Map.of("clusters", clusters))));
    ConfigOrError parsed = args.getServiceConfigParser().parseServiceConfig(serviceConfig);
    if (parsed.getError() != null) {
      // Only a jxds bug or a channel without the cluster manager registered gets here.
      failResolution(Status.UNAVAILABLE.withDescription(
          target.uri() + ": the channel refused the cluster manager's config: " + parsed.getError()));
      return;
    }
    lastResult = ResolutionResult.newBuilder()
        .setAddressesOrError(StatusOr.fromValue(List.of()))
        .setServiceConfig(parsed)
        .setAttributes(attributes)
        .build();
    Status accepted = listener.onResult2(lastResult);
    if (!accepted.isOk()) {
      logger.debug("{}: the channel did not take the result: {}", target.uri(), accepted);
    }
  }

  @Override
  public String toString() {
    return "XdsNameResolver{" + target.uri() + "}";
  }

  /** The source's news, on the SynchronizationContext. */
  private final class Sink implements RouteSource.Sink {
    @Override
    public void onRouteTable(RouteTable table) {
      if (shutdown) {
        return;
      }
      router.install(table);
      firstResult();
    }

    @Override
    public void onError(Status status) {
      if (shutdown) {
        return;
      }
      router.fail(status);
      firstResult();
    }

    /** The first table or error: from now on the channel may route, so it gets a result. */
    private void firstResult() {
      if (!routing) {
        routing = true;
        publish();
      }
    }
  }
}
