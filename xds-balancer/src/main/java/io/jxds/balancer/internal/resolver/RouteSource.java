package io.jxds.balancer.internal.resolver;

import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.XdsClient;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Where a resolver's route tables come from: the seam between the resolver and the listener and
 * route watching (LDS, then RDS or the inline route configuration, then the virtual host for the
 * channel's authority). A source is started once per resolver and tells its {@link Sink} of every
 * new table and every error until it is shut down.
 */
public interface RouteSource {
  /**
   * A name-resolver arg that replaces the default source, for tests and for embedders: {@code
   * builder.setNameResolverArg(RouteSource.FACTORY_ARG, factory)}.
   */
  NameResolver.Args.Key<Factory> FACTORY_ARG = NameResolver.Args.Key.create("io.jxds.routeSource");

  /** Stops telling the sink; releases the watches. On the channel's SynchronizationContext. */
  void shutdown();

  /** Starts sources. */
  @FunctionalInterface
  interface Factory {
    /**
     * Starts watching for {@code request}; on the channel's SynchronizationContext.
     *
     * @param request what to watch and with which client
     * @param sink where tables and errors go, on {@code request.syncContext()}
     * @return the running source
     */
    RouteSource start(Request request, Sink sink);
  }

  /**
   * What a resolver asks for.
   *
   * @param target the channel's target, for errors (e.g. {@code xds:///payments})
   * @param listenerName the listener resource to watch (after the bootstrap's template)
   * @param authority the authority the virtual host is chosen by (gRFC A27: the channel's
   *     override, else the target's name escaped as an authority)
   * @param client the client to watch with; the resolver owns it
   * @param syncContext the channel's; every watcher and every sink call runs there
   * @param scheduler the channel's ({@code NameResolver.Args.getScheduledExecutorService()}), for
   *     fault-injected delays (gRFC A33); null: delays and aborts are not injected
   */
  record Request(String target, String listenerName, String authority, XdsClient client,
      SynchronizationContext syncContext, @Nullable ScheduledExecutorService scheduler) {
    /** A request without a scheduler (no fault injection), for tests. */
    public Request(String target, String listenerName, String authority, XdsClient client,
        SynchronizationContext syncContext) {
      this(target, listenerName, authority, client, syncContext, null);
    }

    public Request {
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(listenerName, "listenerName");
      Objects.requireNonNull(authority, "authority");
      Objects.requireNonNull(client, "client");
      Objects.requireNonNull(syncContext, "syncContext");
    }
  }

  /** Hears a source; called on the channel's SynchronizationContext. */
  interface Sink {
    /** Calls are routed by {@code table} from now on. */
    void onRouteTable(RouteTable table);

    /**
     * No table can be built (the listener or its route configuration does not exist, is invalid
     * with nothing cached, no virtual host matches the authority): every new call fails with
     * {@code status}, until the next table.
     *
     * @param status UNAVAILABLE naming the resource and why (gRFC A54)
     */
    void onError(Status status);
  }
}
