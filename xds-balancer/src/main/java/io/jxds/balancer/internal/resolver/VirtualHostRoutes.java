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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The {@link RouteTable} of one virtual host: the route-matching engine
 * ({@link io.jxds.api.internal.route.RouteTable}, gRFC A28) run once per call, its runtime-fraction
 * and weighted-cluster draws taken from the injected random. A call no route matches, or matched by
 * a route that does not forward ({@code redirect}, {@code direct_response}, ...), fails UNAVAILABLE
 * naming the listener, the virtual host and, for the latter, the route. Immutable.
 *
 * <p>Every answer but "no route matches" is made once, with the table: a call gets the choice of
 * its route and cluster, not a new one. When the first route takes every call to one cluster (one
 * match-all route, the common case) that choice is the answer, without looking at the call.
 */
final class VirtualHostRoutes implements RouteTable {
  private final io.jxds.api.internal.route.RouteTable engine;
  private final Set<String> clusters;
  private final Supplier<? extends RandomGenerator> random;
  private final String where;
  /**
   * By route index, then by the route's cluster index: the answer, with the route's timeout,
   * retries and request hash; for a route that does not forward, its failure.
   */
  private final RouteChoice[][] choices;
  /** The answer for every call, when it cannot depend on the call; else null. */
  private final @Nullable RouteChoice fixed;

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
    this(host, random, where, listenerTimeout, channelId, FaultFilters.NONE);
  }

  /** @param faults the listener's fault filters (gRFC A33, A39) */
  VirtualHostRoutes(VirtualHost host, Supplier<? extends RandomGenerator> random, String where,
      Optional<Duration> listenerTimeout, long channelId, FaultFilters faults) {
    Map<Route, RouteCallConfig> configs = RouteCallConfig.forHost(host, listenerTimeout, channelId);
    this.engine = io.jxds.api.internal.route.RouteTable.of(host);
    this.clusters = Collections.unmodifiableSet(new LinkedHashSet<>(engine.clusterNames()));
    this.random = Objects.requireNonNull(random, "random");
    this.where = where + ": virtual host " + host.name();
    List<RouteEntry> entries = engine.entries();
    this.choices = new RouteChoice[entries.size()][];
    for (RouteEntry e : entries) {
      List<String> names = e.clusters();
      RouteChoice[] byCluster;
      if (names.isEmpty()) {
        String field = e.route().action() instanceof RouteAction.NotForwarded n ? n.field() : "action";
        byCluster = new RouteChoice[] {new RouteChoice.Fail(Status.UNAVAILABLE.withDescription(
            this.where + ": route " + e.route().name() + ": its " + field + " action cannot be served by gRPC"))};
      } else {
        byCluster = new RouteChoice[names.size()];
        for (int i = 0; i < byCluster.length; i++) {
          byCluster[i] = new RouteChoice.ToCluster(names.get(i),
              configs.get(e.route()).withFaults(faults.forCluster(host, e.route(), i)));
        }
      }
      choices[e.index()] = byCluster;
    }
    RouteEntry every = engine.routeForEveryCall();
    this.fixed = every != null && every.clusters().size() <= 1 ? choices[every.index()][0] : null;
  }

  @Override
  public Set<String> clusters() {
    return clusters;
  }

  @Override
  public RouteChoice choose(PickSubchannelArgs call) {
    RouteChoice answer = fixed;
    if (answer != null) {
      return answer;
    }
    RandomGenerator r = random.get();
    String method = call.getMethodDescriptor().getFullMethodName();
    RouteEntry entry = engine.match(method, call.getHeaders(), r);
    if (entry == null) {
      return new RouteChoice.Fail(Status.UNAVAILABLE.withDescription(where + ": no route matches /" + method));
    }
    int cluster = entry.chooseClusterIndex(r);
    return choices[entry.index()][Math.max(cluster, 0)];
  }

  @Override
  public String toString() {
    return "VirtualHostRoutes{" + where + ", clusters=" + clusters + "}";
  }
}
