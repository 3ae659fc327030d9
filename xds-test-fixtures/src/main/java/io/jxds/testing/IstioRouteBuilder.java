package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.route.v3.DirectResponseAction;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the RouteConfiguration istiod's proxyless gRPC generator sends for a service port (see
 * {@link IstioResources}): named {@code outbound|PORT||HOST}, one virtual host named
 * {@code HOST:PORT} whose domains are the host's spellings with and without the port (FQDN, then,
 * as istiod 1.28+ does by default, the absolute {@code FQDN.} and {@code FQDN.:PORT}, then the
 * short and namespace forms and the VIP), and the routes of a VirtualService in order, or without
 * one the default route: prefix {@code /} to {@code outbound|PORT||HOST}.
 *
 * <p>Every route carries what istiod adds for proxyless clients: {@code timeout} and
 * {@code max_stream_duration.max_stream_duration} 0 (none), and the mesh's default retry policy
 * ({@code retry_on: connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes},
 * {@code num_retries: 2}). A VirtualService route sets {@code case_sensitive} explicitly (true);
 * the default route leaves it unset.
 */
public final class IstioRouteBuilder {
  /** The mesh's default {@code retry_on}. */
  public static final String DEFAULT_RETRY_ON =
      "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes";
  /** The filter name of istiod's CORS override. */
  public static final String CORS_FILTER_NAME = "envoy.filters.http.cors";

  private final String host;
  private final int port;
  private final List<Route> routes = new ArrayList<>();
  private boolean absoluteFqdn = true;
  private String vip = "";
  private boolean cors;
  private String hashHeader = "";

  IstioRouteBuilder(String host, int port) {
    IstioResources.clusterName(host, port); // checks the arguments
    this.host = host;
    this.port = port;
  }

  /**
   * Whether the absolute domains {@code FQDN.} and {@code FQDN.:PORT} are listed (istiod's
   * {@code PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN}, on by default since 1.28).
   *
   * @param on false for istiod before 1.28, or with the flag off
   * @return this builder
   */
  public IstioRouteBuilder absoluteFqdnDomains(boolean on) {
    this.absoluteFqdn = on;
    return this;
  }

  /**
   * The service's virtual IP, listed as {@code VIP} and {@code VIP:PORT} domains.
   *
   * @param vip the cluster IP
   * @return this builder
   */
  public IstioRouteBuilder vip(String vip) {
    this.vip = vip;
    return this;
  }

  /**
   * A VirtualService route: calls whose header {@code name} is exactly {@code value} go to the
   * DestinationRule subset {@code subset}.
   *
   * @param name the header's name
   * @param value its exact value
   * @param subset the subset ({@code ""}: the service port's own cluster)
   * @return this builder
   */
  public IstioRouteBuilder headerRoute(String name, String value, String subset) {
    RouteMatch.Builder match = virtualServiceMatch().addHeaders(HeaderMatcher.newBuilder().setName(name)
        .setStringMatch(StringMatcher.newBuilder().setExact(value)));
    routes.add(forward(match, RouteAction.newBuilder().setCluster(cluster(subset))));
    return this;
  }

  /**
   * A VirtualService route that splits every call between two subsets by weight (a canary: 90, 10);
   * a destination of weight 0 is left out, as istiod leaves it out.
   *
   * @param subset1 the first subset
   * @param weight1 its weight
   * @param subset2 the second subset
   * @param weight2 its weight
   * @return this builder
   */
  public IstioRouteBuilder split(String subset1, int weight1, String subset2, int weight2) {
    WeightedCluster.Builder weighted = WeightedCluster.newBuilder();
    if (weight1 > 0) {
      weighted.addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(cluster(subset1))
          .setWeight(UInt32Value.of(weight1)));
    }
    if (weight2 > 0) {
      weighted.addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(cluster(subset2))
          .setWeight(UInt32Value.of(weight2)));
    }
    routes.add(forward(virtualServiceMatch(), RouteAction.newBuilder().setWeightedClusters(weighted)));
    return this;
  }

  /**
   * A VirtualService route that sends every call to one subset.
   *
   * @param subset the subset ({@code ""}: the service port's own cluster)
   * @return this builder
   */
  public IstioRouteBuilder subsetRoute(String subset) {
    routes.add(forward(virtualServiceMatch(), RouteAction.newBuilder().setCluster(cluster(subset))));
    return this;
  }

  /**
   * A VirtualService {@code redirect} for paths under {@code prefix}: istiod emits an envoy
   * {@code redirect} action, which gRPC cannot follow.
   *
   * @param prefix the path prefix
   * @param authority the {@code host_redirect}
   * @return this builder
   */
  public IstioRouteBuilder redirect(String prefix, String authority) {
    routes.add(Route.newBuilder().setMatch(virtualServiceMatch().setPrefix(prefix))
        .setRedirect(RedirectAction.newBuilder().setHostRedirect(authority)).build());
    return this;
  }

  /**
   * A VirtualService {@code directResponse} for paths under {@code prefix}: an envoy
   * {@code direct_response} action.
   *
   * @param prefix the path prefix
   * @param status the HTTP status
   * @return this builder
   */
  public IstioRouteBuilder directResponse(String prefix, int status) {
    routes.add(Route.newBuilder().setMatch(virtualServiceMatch().setPrefix(prefix))
        .setDirectResponse(DirectResponseAction.newBuilder().setStatus(status)).build());
    return this;
  }

  /**
   * The VirtualService has a {@code corsPolicy}: every route of it carries a
   * {@code typed_per_filter_config} entry {@value #CORS_FILTER_NAME} with a {@code CorsPolicy},
   * not optional.
   *
   * @return this builder
   */
  public IstioRouteBuilder cors() {
    this.cors = true;
    return this;
  }

  /**
   * The destination's DestinationRule has {@code consistentHash.httpHeaderName: NAME}: istiod puts
   * a {@code hash_policy} {@code header} entry for it on every route that forwards there.
   *
   * @param name the header whose value keys the hash
   * @return this builder
   */
  public IstioRouteBuilder consistentHashHeader(String name) {
    this.hashHeader = name;
    return this;
  }

  /**
   * Adds a route as given, after those added so far.
   *
   * @param route the route
   * @return this builder
   */
  public IstioRouteBuilder route(Route route) {
    routes.add(route);
    return this;
  }

  /**
   * The RouteConfiguration.
   *
   * @return the route configuration as set so far
   */
  public RouteConfiguration build() {
    VirtualHost.Builder vh = VirtualHost.newBuilder().setName(host + ":" + port).addAllDomains(domains());
    List<Route> all = new ArrayList<>();
    if (routes.isEmpty()) {
      all.add(forward(RouteMatch.newBuilder().setPrefix("/"),
          RouteAction.newBuilder().setCluster(cluster(""))).toBuilder().setName("default").build());
    } else {
      all.addAll(routes);
    }
    if (!hashHeader.isEmpty()) {
      all.replaceAll(r -> r.hasRoute() ? r.toBuilder().setRoute(r.getRoute().toBuilder().addHashPolicy(
          RouteAction.HashPolicy.newBuilder().setHeader(RouteAction.HashPolicy.Header.newBuilder()
              .setHeaderName(hashHeader)))).build() : r);
    }
    if (routes.isEmpty()) {
      vh.addAllRoutes(all);
    } else {
      for (Route r : all) {
        vh.addRoutes(cors ? r.toBuilder().putTypedPerFilterConfig(CORS_FILTER_NAME,
            Any.pack(CorsPolicy.newBuilder().setAllowCredentials(BoolValue.of(true)).build())).build() : r);
      }
    }
    return RouteConfiguration.newBuilder().setName(IstioResources.clusterName(host, port)).addVirtualHosts(vh).build();
  }

  /**
   * The RouteConfiguration packed in an {@code Any}.
   *
   * @return the packed route configuration
   */
  public Any buildAny() {
    return Any.pack(build());
  }

  private List<String> domains() {
    List<String> d = new ArrayList<>();
    String p = ":" + port;
    d.add(host);
    d.add(host + p);
    if (absoluteFqdn) {
      d.add(host + ".");
      d.add(host + "." + p);
    }
    String[] labels = host.split("\\.");
    // short forms: name, name.namespace, name.namespace.svc (for HOST = name.namespace.svc.DOMAIN)
    for (int n = 1; n <= Math.min(3, labels.length - 1); n++) {
      String shortName = String.join(".", List.of(labels).subList(0, n));
      d.add(shortName);
      d.add(shortName + p);
    }
    if (!vip.isEmpty()) {
      d.add(vip);
      d.add(vip + p);
    }
    return d;
  }

  private String cluster(String subset) {
    return IstioResources.subsetClusterName(host, port, subset);
  }

  private static RouteMatch.Builder virtualServiceMatch() {
    return RouteMatch.newBuilder().setPrefix("/").setCaseSensitive(BoolValue.of(true));
  }

  private static Route forward(RouteMatch.Builder match, RouteAction.Builder action) {
    Duration none = Duration.getDefaultInstance();
    return Route.newBuilder()
        .setMatch(match)
        .setRoute(action
            .setTimeout(none)
            .setMaxStreamDuration(RouteAction.MaxStreamDuration.newBuilder().setMaxStreamDuration(none))
            .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn(DEFAULT_RETRY_ON).setNumRetries(UInt32Value.of(2))))
        .build();
  }
}
