package io.jxds.balancer.internal.resolver;

import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.HttpFilterConfig;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.VirtualHost;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * A listener's fault filters (gRFC A33) and how a route table resolves them per route and cluster
 * (gRFC A39). The listener's {@code http_filters} run in its order with the router last; the router
 * is the cluster choice itself, and fault injection is the only other filter jxds runs, so the
 * chain a call sees is: its cluster interceptor, then each fault filter in listener order.
 *
 * <p>A filter's config for a call is the first {@code typed_per_filter_config} entry under its
 * name on the chosen weighted cluster, else the route, else the virtual host, else the listener's
 * (A39: an override replaces the config, no field merge). An override whose filter the listener
 * lacks has no effect (A39 does not make it an error). Resolved once per table, so a call only
 * draws: a filter that can fault no call (0 %, {@code max_active_faults} 0) is left out and costs
 * the calls nothing.
 */
final class FaultFilters {
  /** No fault filter: every call runs as its route says. */
  static final FaultFilters NONE = new FaultFilters(List.of(), () -> null, null, ActiveFaults.PROCESS);

  private final List<HttpFilter> filters;
  private final Supplier<? extends RandomGenerator> random;
  private final @Nullable ScheduledExecutorService scheduler;
  private final ActiveFaults active;

  /**
   * @param listenerFilters the listener's {@code http_filters}, in order
   * @param random the draws' source, asked on the calls' threads
   * @param scheduler the channel's, for delays
   * @param active the count {@code max_active_faults} limits
   */
  FaultFilters(List<HttpFilter> listenerFilters, Supplier<? extends RandomGenerator> random,
      @Nullable ScheduledExecutorService scheduler, ActiveFaults active) {
    List<HttpFilter> faults = new ArrayList<>();
    for (HttpFilter f : listenerFilters) {
      if (f.config().orElse(null) instanceof FaultConfig) {
        faults.add(f);
      }
    }
    this.filters = List.copyOf(faults);
    this.random = random;
    this.scheduler = scheduler;
    this.active = active;
  }

  /**
   * The faults of the calls {@code route} sends to its cluster {@code clusterIndex}.
   *
   * @return null when no filter can fault them
   */
  @Nullable Chain forCluster(VirtualHost host, Route route, int clusterIndex) {
    if (filters.isEmpty() || scheduler == null) {
      return null;
    }
    Map<String, HttpFilterConfig> cluster = Map.of();
    if (route.action() instanceof RouteAction.WeightedClusters w && clusterIndex < w.clusters().size()) {
      ClusterWeight c = w.clusters().get(clusterIndex);
      cluster = c.filterOverrides();
    }
    List<FaultPolicy> policies = new ArrayList<>(filters.size());
    for (HttpFilter f : filters) {
      HttpFilterConfig config = cluster.get(f.name());
      if (config == null) {
        config = route.filterOverrides().get(f.name());
      }
      if (config == null) {
        config = host.filterOverrides().get(f.name());
      }
      if (config == null) {
        config = f.config().orElseThrow();
      }
      FaultPolicy policy = config instanceof FaultConfig fault ? FaultPolicy.of(fault) : null;
      if (policy != null) {
        policies.add(policy);
      }
    }
    return policies.isEmpty() ? null : new Chain(policies.toArray(new FaultPolicy[0]), random, scheduler, active);
  }

  /** The fault filters of one route and cluster: what each call draws. Immutable. */
  static final class Chain {
    private final FaultPolicy[] policies;
    private final Supplier<? extends RandomGenerator> random;
    private final ScheduledExecutorService scheduler;
    private final ActiveFaults active;

    Chain(FaultPolicy[] policies, Supplier<? extends RandomGenerator> random, ScheduledExecutorService scheduler,
        ActiveFaults active) {
      this.policies = policies;
      this.random = random;
      this.scheduler = scheduler;
      this.active = active;
    }

    /**
     * The interceptor of one call: {@code outer} alone when it drew no fault.
     *
     * @param outer the call's cluster interceptor
     * @param headers the call's headers
     */
    ClientInterceptor intercept(ClientInterceptor outer, Metadata headers) {
      RandomGenerator r = random.get();
      FaultPolicy.Fault[] drawn = null;
      int n = 0;
      for (FaultPolicy p : policies) {
        FaultPolicy.Fault f = p.decide(headers, r);
        if (f != null) {
          if (drawn == null) {
            drawn = new FaultPolicy.Fault[policies.length];
          }
          drawn[n++] = f;
        }
      }
      if (drawn == null) {
        return outer;
      }
      return new FaultInterceptor(outer, n == drawn.length ? drawn : Arrays.copyOf(drawn, n), scheduler,
          active);
    }
  }
}
