package io.jxds.balancer.internal.resolver;

import io.grpc.ClientInterceptor;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.NameResolver.ConfigOrError;
import io.grpc.NameResolver.ServiceConfigParser;
import io.grpc.Status;
import io.jxds.api.model.route.RetryPolicy;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one route sets on each call it routes (gRFC A31, A44, A42), built once per route table:
 * the call's method config (timeout and retry policy, in {@link MethodConfigJson}'s form, parsed
 * by the channel's own parser on the first call and kept) and its request hash
 * ({@link RequestHash}).
 *
 * <ul>
 *   <li>Timeout (A31): the route's {@code max_stream_duration} when set ({@code 0}: none), else the
 *       listener's {@code common_http_protocol_options.max_stream_duration}, else none.
 *   <li>Retries (A44): the route's {@code retry_policy}, else its virtual host's (grpc-java ignores
 *       the latter); none when it retries on no code gRPC supports.
 *   <li>Hash (A42): see {@link RequestHash}; the hash goes into the call options every pick reads.
 * </ul>
 *
 * <p>Immutable but for the parser's answer, kept once: the parsed config, or the refusal every
 * call of the route then fails with (logged once; a race parses twice, harmlessly, and the first
 * answer stays).
 */
final class RouteCallConfig {
  private static final Logger logger = LoggerFactory.getLogger(RouteCallConfig.class);
  private static final AtomicReferenceFieldUpdater<RouteCallConfig, Object> PARSED =
      AtomicReferenceFieldUpdater.newUpdater(RouteCallConfig.class, Object.class, "parsed");

  /** No per-route settings: the channel's default method config, no hash. */
  static final RouteCallConfig NONE = new RouteCallConfig("", null, null);

  private final String route;
  private final @Nullable Map<String, ?> json;
  private final @Nullable RequestHash hash;
  private final FaultFilters.@Nullable Chain faults; // gRFC A33, per route and cluster (FaultFilters)
  /** The channel's parsed config, or the {@link CallRoute.Failed} of its refusal; null before the first call. */
  private volatile @Nullable Object parsed;

  private RouteCallConfig(String route, @Nullable Map<String, ?> json, @Nullable RequestHash hash) {
    this(route, json, hash, null);
  }

  private RouteCallConfig(String route, @Nullable Map<String, ?> json, @Nullable RequestHash hash,
      FaultFilters.@Nullable Chain faults) {
    this.route = route;
    this.json = json;
    this.hash = hash;
    this.faults = faults;
  }

  /** These settings with the fault filters of one of the route's clusters; this one when there are none. */
  RouteCallConfig withFaults(FaultFilters.@Nullable Chain chain) {
    return chain == null ? this : new RouteCallConfig(route, json, hash, chain);
  }

  /**
   * The settings of every route of {@code host}, by route (identity).
   *
   * @param listenerTimeout the listener's {@code max_stream_duration}
   * @param channelId the channel's id, for the {@code io.grpc.channel_id} hash policy
   */
  static Map<Route, RouteCallConfig> forHost(VirtualHost host, Optional<Duration> listenerTimeout, long channelId) {
    Map<Route, RouteCallConfig> configs = new IdentityHashMap<>();
    for (Route r : host.routes()) {
      Duration timeout = r.maxStreamDuration().or(() -> listenerTimeout).filter(d -> !d.isZero()).orElse(null);
      RetryPolicy retry = r.retryPolicy().or(host::retryPolicy).orElse(null);
      Map<String, ?> json = MethodConfigJson.of(timeout, retry);
      RequestHash hash = r.hashPolicies().isEmpty() ? null : new RequestHash(r.hashPolicies(), channelId);
      configs.put(r, json == null && hash == null ? NONE : new RouteCallConfig(r.name(), json, hash));
    }
    return configs;
  }

  /**
   * Runs one call that holds {@code ref}: its method config and its interceptor; or, should the
   * channel's parser refuse the method config (a jxds bug), fails it naming the route and gives the
   * reference back (the parser is asked once per table, the refusal logged once).
   *
   * @param defaultConfig the channel's method config for a route without settings
   * @param parser the channel's service-config parser; may be null when no route has settings
   */
  CallRoute route(ClusterRefs.ClusterRef ref, PickSubchannelArgs call, Object defaultConfig,
      @Nullable ServiceConfigParser parser) {
    Object config = defaultConfig;
    if (json != null) {
      config = parsed;
      if (config == null) {
        config = parse(json, parser);
      }
      if (config instanceof CallRoute.Failed refused) {
        ref.releaseFromCall();
        return refused;
      }
    }
    ChosenCluster chosen = hash == null ? ref.chosen() : hash.chosen(ref.chosen(), call.getHeaders());
    ClientInterceptor interceptor = new ClusterCallInterceptor(ref, chosen);
    return new CallRoute.Routed(config,
        faults == null ? interceptor : faults.intercept(interceptor, call.getHeaders()));
  }

  /** Asks the channel's parser, once per table: the config, or the refusal (logged by the first to keep it). */
  private Object parse(Map<String, ?> json, @Nullable ServiceConfigParser parser) {
    ConfigOrError result = parser == null ? ConfigOrError.fromError(Status.INTERNAL.withDescription("no parser"))
        : parser.parseServiceConfig(json);
    Object answer = result.getError() == null ? result.getConfig()
        : new CallRoute.Failed(Status.UNAVAILABLE.withDescription("route " + route
            + ": the channel refused its method config " + json + ": " + result.getError()));
    if (PARSED.compareAndSet(this, null, answer)) {
      if (answer instanceof CallRoute.Failed refused) {
        logger.warn("{} (every call of the route fails until the next route table)", refused.status().getDescription());
      }
      return answer;
    }
    return parsed;
  }

  @Override
  public String toString() {
    return "RouteCallConfig{" + route + ", " + json + (hash == null ? "" : ", hash") + "}";
  }
}
