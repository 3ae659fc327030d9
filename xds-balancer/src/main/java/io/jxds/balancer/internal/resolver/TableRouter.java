package io.jxds.balancer.internal.resolver;

import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each call by the current {@link RouteTable}, and keeps the clusters that calls and the
 * table use ({@link ClusterRefs}). A new table is installed in gRFC A31's order: its new clusters
 * join the cluster manager's config first, then the table serves, then the old table's references
 * are dropped, so no call can be routed to a cluster the cluster manager lacks and no call in
 * flight loses its cluster.
 *
 * <p>{@link #install} and {@link #fail} run on the channel's SynchronizationContext; {@link #route}
 * on RPC threads, reading one volatile snapshot.
 */
final class TableRouter implements CallRouter {
  private static final Logger logger = LoggerFactory.getLogger(TableRouter.class);

  private final SynchronizationContext syncContext;
  private final ClusterRefs refs;
  private final Object methodConfig;
  private final NameResolver.@Nullable ServiceConfigParser parser;
  private final String name;
  /** {@link Installed}, or {@link CallRoute.Failed} while every call fails; null before either. */
  private volatile Object current;

  /**
   * @param refs the clusters' counts; their {@code onChange} pushes the cluster manager's config
   * @param methodConfig the config every routed call gets, parsed by the channel's parser
   * @param name the target, for errors
   */
  TableRouter(SynchronizationContext syncContext, ClusterRefs refs, Object methodConfig, String name) {
    this(syncContext, refs, methodConfig, null, name);
  }

  /**
   * @param parser the channel's service-config parser, for the routes' own method configs (gRFC
   *     A31: timeouts, retries; {@link RouteCallConfig})
   */
  TableRouter(SynchronizationContext syncContext, ClusterRefs refs, Object methodConfig,
      NameResolver.@Nullable ServiceConfigParser parser, String name) {
    this.parser = parser;
    this.syncContext = Objects.requireNonNull(syncContext, "syncContext");
    this.refs = Objects.requireNonNull(refs, "refs");
    this.methodConfig = Objects.requireNonNull(methodConfig, "methodConfig");
    this.name = Objects.requireNonNull(name, "name");
  }

  /** Routes calls by {@code table} from now on. */
  void install(RouteTable table) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Set<String> clusters = table.clusters();
    Map<String, ClusterRefs.ClusterRef> held = refs.hold(clusters);
    Object previous = current;
    current = new Installed(table, Map.copyOf(held));
    if (previous instanceof Installed old) {
      refs.release(old.refs.values());
    }
  }

  /** Fails every new call with {@code status} (UNAVAILABLE) until the next table. */
  void fail(Status status) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object previous = current;
    current = new CallRoute.Failed(status);
    if (previous instanceof Installed old) {
      refs.release(old.refs.values());
    }
  }

  /** Drops the table's references, for the resolver's shutdown. */
  void shutdown() {
    fail(Status.UNAVAILABLE.withDescription(name + ": the resolver is shut down"));
  }

  @Override
  public CallRoute route(PickSubchannelArgs call) {
    while (true) {
      Object snapshot = current;
      if (!(snapshot instanceof Installed installed)) {
        return snapshot instanceof CallRoute.Failed failed ? failed : new CallRoute.Failed(
            Status.UNAVAILABLE.withDescription(name + ": no route table yet"));
      }
      RouteChoice choice;
      try {
        choice = installed.table.choose(call);
      } catch (RuntimeException e) {
        // A bug in a table must fail its calls, not the channel.
        logger.warn("{}: choosing a route failed", name, e);
        return new CallRoute.Failed(Status.UNAVAILABLE.withDescription(name + ": choosing a route failed: " + e)
            .withCause(e));
      }
      if (choice instanceof RouteChoice.Fail fail) {
        return new CallRoute.Failed(fail.status());
      }
      RouteChoice.ToCluster to = (RouteChoice.ToCluster) choice;
      String cluster = to.cluster();
      ClusterRefs.ClusterRef ref = installed.refs.get(cluster);
      if (ref == null) {
        return new CallRoute.Failed(Status.UNAVAILABLE.withDescription(
            name + ": the route chose cluster " + cluster + ", which the route table does not list"));
      }
      if (ref.tryRetain()) {
        return to.config().route(ref, call, methodConfig, parser);
      }
      // The table was replaced and dropped its last reference meanwhile: route by the new one.
    }
  }

  @Override
  public String toString() {
    return "TableRouter{" + name + "}";
  }

  private record Installed(RouteTable table, Map<String, ClusterRefs.ClusterRef> refs) {}
}
