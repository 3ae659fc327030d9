package io.jxds.balancer.internal.resolver;

import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.internal.route.VirtualHostSelector;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.VirtualHost;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RouteSource} of an {@code xds:///} channel (gRFC A27, ARCHITECTURE.md, "Routing each
 * call"): watches the listener; its routes inline, or the route configuration its {@code
 * rds.route_config_name} names (a new name: the old watch ends, the routes in use stay until the
 * new configuration arrives); chooses the virtual host for the channel's authority and tells the
 * sink its {@link VirtualHostRoutes}.
 *
 * <p>The sink hears an error, naming the resource, when the listener or its route configuration
 * does not exist (absent from a SotW response, or the does-not-exist timer), when no virtual host
 * matches the authority, and when the client reports an error before any routes arrived. An error
 * once routes are in place (a NACKed update, a broken stream) keeps them (gRFC A27). Everything
 * runs on the channel's SynchronizationContext: the watches' executor.
 */
public final class ListenerRouteSource implements RouteSource {
  private static final Logger logger = LoggerFactory.getLogger(ListenerRouteSource.class);

  /** The source every {@code xds:///} channel gets unless one is handed in. */
  static final RouteSource.Factory FACTORY = factory(ThreadLocalRandom::current);

  private final Request request;
  private final Sink sink;
  private final Supplier<? extends RandomGenerator> random;
  private final String where;
  private final WatchHandle listenerWatch;
  private @Nullable String rdsName;
  private @Nullable WatchHandle rdsWatch;
  private @Nullable RdsWatcher rdsWatcher;
  /** The listener's {@code max_stream_duration}, every route's default timeout (gRFC A31). */
  private Optional<Duration> listenerTimeout = Optional.empty();
  /** The listener's fault filters (gRFC A33, A39). */
  private List<HttpFilter> listenerFilters = List.of();
  /** The routes in use and where they came from, rebuilt when the listener's timeout or filters change. */
  private @Nullable RouteConfigurationUpdate lastRoutes;
  private String lastWhich = "";
  /** The channel's id for the {@code io.grpc.channel_id} hash policy (gRFC A42): one per channel. */
  private final long channelId = ThreadLocalRandom.current().nextLong();
  /** Whether the sink has routes (not an error) in force. */
  private boolean routing;
  private @Nullable String lastError;
  private boolean shutdown;

  private ListenerRouteSource(Request request, Sink sink, Supplier<? extends RandomGenerator> random) {
    this.request = request;
    this.sink = sink;
    this.random = random;
    this.where = request.target() + ": listener " + request.listenerName();
    this.listenerWatch = request.client().watchListener(request.listenerName(), new LdsWatcher(),
        request.syncContext());
  }

  /**
   * A factory whose tables draw their runtime fractions and weighted clusters from {@code random}
   * (tests hand in a seeded one; it is asked on the calls' threads, so it must be thread-safe).
   *
   * @param random the draws' source, asked once per call
   * @return the factory, for {@link RouteSource#FACTORY_ARG}
   */
  public static RouteSource.Factory factory(Supplier<? extends RandomGenerator> random) {
    Objects.requireNonNull(random, "random");
    return (request, sink) -> new ListenerRouteSource(request, sink, random);
  }

  @Override
  public void shutdown() {
    request.syncContext().throwIfNotInThisSynchronizationContext();
    shutdown = true;
    listenerWatch.cancel();
    cancelRds();
  }

  private void onListener(ListenerUpdate listener) {
    boolean listenerChanged = !listener.maxStreamDuration().equals(listenerTimeout)
        || !listener.httpFilters().equals(listenerFilters);
    listenerTimeout = listener.maxStreamDuration();
    listenerFilters = listener.httpFilters();
    if (listener.inlineRouteConfiguration().isPresent()) {
      cancelRds();
      onRoutes(listener.inlineRouteConfiguration().get(), "the inline route configuration");
      return;
    }
    String name = listener.rdsName().orElseThrow();
    if (name.equals(rdsName)) {
      if (listenerChanged && routing && lastRoutes != null) {
        onRoutes(lastRoutes, lastWhich); // the same routes with the listener's new timeout or filters
      }
      return; // the same route configuration: its watch carries on
    }
    cancelRds();
    logger.debug("{}: watching route configuration {}", where, name);
    rdsName = name;
    rdsWatcher = new RdsWatcher(name);
    rdsWatch = request.client().watchRouteConfiguration(name, rdsWatcher, request.syncContext());
  }

  private void onRoutes(RouteConfigurationUpdate routes, String which) {
    VirtualHost host = VirtualHostSelector.select(routes.virtualHosts(), request.authority());
    if (host == null) {
      fail(where + ": " + which + " has no virtual host whose domains match authority " + request.authority());
      return;
    }
    lastRoutes = routes;
    lastWhich = which;
    FaultFilters faults = new FaultFilters(listenerFilters, random, request.scheduler(), ActiveFaults.PROCESS);
    VirtualHostRoutes table = new VirtualHostRoutes(host, random, where, listenerTimeout, channelId, faults);
    logger.debug("{}: routing by virtual host {} of {}, clusters {}", where, host.name(), which, table.clusters());
    routing = true;
    lastError = null;
    sink.onRouteTable(table);
  }

  /** The client's error: kept routes stay; without routes, calls fail with it. */
  private void onClientError(Status error, String resource) {
    if (routing) {
      logger.debug("{}: {} (the routes in use stay)", where, error.getDescription());
      return;
    }
    fail(where + ": " + resource + ": " + error.getDescription());
  }

  private void fail(String description) {
    routing = false;
    if (!description.equals(lastError)) {
      logger.warn("{}", description);
      lastError = description;
    }
    sink.onError(Status.UNAVAILABLE.withDescription(description));
  }

  private void cancelRds() {
    if (rdsWatch != null) {
      rdsWatch.cancel();
    }
    rdsWatch = null;
    rdsWatcher = null;
    rdsName = null;
  }

  @Override
  public String toString() {
    return "ListenerRouteSource{" + where + "}";
  }

  private final class LdsWatcher implements ResourceWatcher<ListenerUpdate> {
    @Override
    public void onUpdate(ListenerUpdate value) {
      if (!shutdown) {
        onListener(value);
      }
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      if (!shutdown) {
        cancelRds();
        fail(where + " does not exist");
      }
    }

    @Override
    public void onError(Status error) {
      if (!shutdown) {
        onClientError(error, "listener " + request.listenerName());
      }
    }
  }

  /** One route configuration's watcher; a replaced one (a new RDS name) is ignored. */
  private final class RdsWatcher implements ResourceWatcher<RouteConfigurationUpdate> {
    private final String name;

    RdsWatcher(String name) {
      this.name = name;
    }

    private boolean current() {
      return !shutdown && rdsWatcher == this;
    }

    @Override
    public void onUpdate(RouteConfigurationUpdate value) {
      if (current()) {
        onRoutes(value, "route configuration " + name);
      }
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      if (current()) {
        fail(where + ": route configuration " + name + " does not exist");
      }
    }

    @Override
    public void onError(Status error) {
      if (current()) {
        onClientError(error, "route configuration " + name);
      }
    }
  }
}
