package io.jxds.balancer.internal.resolver;

import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.Status;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.VirtualHost;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The {@link RouteTable} of one virtual host: the route-matching engine
 * ({@link io.jxds.api.internal.route.RouteTable}, gRFC A28) run once per call, its runtime-fraction
 * and weighted-cluster draws taken from the injected random. A call no route matches, or matched by
 * a route that does not forward ({@code redirect}, {@code direct_response}, ...), fails UNAVAILABLE
 * naming the listener, the virtual host and, for the latter, the route. Immutable.
 */
final class VirtualHostRoutes implements RouteTable {
  private final io.jxds.api.internal.route.RouteTable engine;
  private final Set<String> clusters;
  private final Supplier<? extends RandomGenerator> random;
  private final String where;
  private final Map<Route, RouteCallConfig> configs;

  /**
   * @param host the virtual host chosen for the channel's authority
   * @param random the draws' source, asked once per call on the call's thread
   * @param where what errors begin with: the target and the listener
   */
  VirtualHostRoutes(VirtualHost host, Supplier<? extends RandomGenerator> random, String where) {
    this(host, random, where, Optional.empty(), 0);
  }

  /**
   * @param listenerTimeout the listener's {@code max_stream_duration} (gRFC A31)
   * @param channelId the channel's id, for the {@code io.grpc.channel_id} hash policy (gRFC A42)
   */
  VirtualHostRoutes(VirtualHost host, Supplier<? extends RandomGenerator> random, String where,
      Optional<Duration> listenerTimeout, long channelId) {
    this.configs = RouteCallConfig.forHost(host, listenerTimeout, channelId);
    this.engine = io.jxds.api.internal.route.RouteTable.of(host);
    this.clusters = Collections.unmodifiableSet(new LinkedHashSet<>(engine.clusterNames()));
    this.random = Objects.requireNonNull(random, "random");
    this.where = where + ": virtual host " + host.name();
  }

  @Override
  public Set<String> clusters() {
    return clusters;
  }

  @Override
  public RouteChoice choose(PickSubchannelArgs call) {
    RandomGenerator r = random.get();
    String method = call.getMethodDescriptor().getFullMethodName();
    RouteEntry entry = engine.match(method, call.getHeaders(), r);
    if (entry == null) {
      return new RouteChoice.Fail(Status.UNAVAILABLE.withDescription(where + ": no route matches /" + method));
    }
    String cluster = entry.chooseCluster(r);
    if (cluster == null) {
      String field = entry.route().action() instanceof RouteAction.NotForwarded n ? n.field() : "action";
      return new RouteChoice.Fail(Status.UNAVAILABLE.withDescription(
          where + ": route " + entry.route().name() + ": its " + field + " action cannot be served by gRPC"));
    }
    return new RouteChoice.ToCluster(cluster, configs.get(entry.route()));
  }

  @Override
  public String toString() {
    return "VirtualHostRoutes{" + where + ", clusters=" + clusters + "}";
  }
}
