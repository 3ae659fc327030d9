package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.config.route.v3.ClusterSpecifierPlugin;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.route.Domains;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.filter.HttpFilterConfig;
import io.jxds.api.model.route.ClusterWeight;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates an envoy v3 {@code RouteConfiguration} (an RDS resource, or a Listener's inline
 * {@code route_config}) into a {@link RouteConfigurationUpdate} (gRFC A28, A39).
 *
 * <p>Three outcomes for what a route holds: a NACK naming the resource, the field and the value
 * (the last good resource stays in use); a route left out, because gRPC never matches it; or a
 * field ignored.
 *
 * <ul>
 *   <li>{@code virtual_hosts} may be empty (no authority then finds a host: the client fails the
 *       calls). {@code domains} are never a NACK: they are normalized and malformed ones left out
 *       ({@link Domains}).
 *   <li>A route's {@code match}: see {@link RouteMatchDecoder}; with {@code query_parameters} the
 *       route is left out (gRFC A28: gRPC has none).
 *   <li>Its action: {@code route} with {@code cluster} (not empty) or {@code weighted_clusters}
 *       (at least one, names not empty, weights read unsigned and summing to [1, 2^32-1];
 *       {@code total_weight} is not read); {@code cluster_header}, an inline plugin or no cluster
 *       specifier leave the route out (gRFC A28); {@code cluster_specifier_plugin} must name an
 *       entry of {@code cluster_specifier_plugins}, and jxds runs no plugin, so such a route is
 *       left out when that plugin is {@code is_optional}, and a required plugin is a NACK.
 *       {@code non_forwarding_action}, {@code redirect}, {@code direct_response} and
 *       {@code filter_action} are accepted as {@link io.jxds.api.model.route.RouteAction.NotForwarded}:
 *       the route's calls fail, naming it (grpc-java NACKs the whole resource for the last three).
 *       An unset action is a NACK.
 *   <li>{@code typed_per_filter_config} of virtual hosts, routes and weighted clusters: see
 *       {@link HttpFilterRules#overrides}: kept by filter name for the filters jxds runs.
 *   <li>The timeout ({@code max_stream_duration}), {@code retry_policy} (a virtual host's too) and
 *       {@code hash_policy}: see {@link RoutePolicyDecoder}.
 *   <li>{@code timeout}, CORS, header rewrites, mirrors and the rest are not read here.
 * </ul>
 */
public final class RouteConfigurationDecoder {
  static final String KIND = "RouteConfiguration";
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  private RouteConfigurationDecoder() {}

  /**
   * Validates an RDS resource; every rule broken names it, the field and the value.
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static RouteConfigurationUpdate decode(RouteConfiguration routes) throws XdsResourceException {
    String name = "";
    try {
      name = routes.getName();
      if (name.isEmpty()) {
        throw Nack.of(KIND, name, "name must not be empty", "\"\"");
      }
      return decode(routes, KIND, name, "");
    } catch (RuntimeException e) {
      throw Nack.unexpected(KIND, name, e);
    }
  }

  /**
   * Validates a route configuration found at {@code path} of a resource (empty for an RDS
   * resource itself, {@code api_listener.api_listener.route_config} for a listener's inline one).
   */
  static RouteConfigurationUpdate decode(RouteConfiguration routes, String kind, String name, String path)
      throws XdsResourceException {
    Set<String> optionalPlugins = plugins(routes, kind, name, path);
    List<io.jxds.api.model.route.VirtualHost> hosts = new ArrayList<>(routes.getVirtualHostsCount());
    for (int i = 0; i < routes.getVirtualHostsCount(); i++) {
      hosts.add(virtualHost(routes.getVirtualHosts(i), kind, name, at(path, "virtual_hosts[" + i + "]"),
          optionalPlugins));
    }
    return new RouteConfigurationUpdate(routes.getName(), hosts);
  }

  private static io.jxds.api.model.route.VirtualHost virtualHost(
      VirtualHost host, String kind, String name, String path, Set<String> optionalPlugins)
      throws XdsResourceException {
    Set<String> domains = new LinkedHashSet<>(); // a set: a control plane may list thousands
    for (String d : host.getDomainsList()) {
      String normalized = Domains.normalizeDomain(d);
      if (normalized != null) {
        domains.add(normalized);
      }
    }
    Map<String, HttpFilterConfig> overrides = HttpFilterRules.overrides(host.getTypedPerFilterConfigMap(), kind, name,
        path + ".typed_per_filter_config");
    Optional<io.jxds.api.model.route.RetryPolicy> retry = host.hasRetryPolicy()
        ? Optional.of(RoutePolicyDecoder.retryPolicy(host.getRetryPolicy(), kind, name, path + ".retry_policy"))
        : Optional.empty();
    List<io.jxds.api.model.route.Route> routes = new ArrayList<>(host.getRoutesCount());
    for (int j = 0; j < host.getRoutesCount(); j++) {
      route(host.getRoutes(j), j, kind, name, path + ".routes[" + j + "]", optionalPlugins).ifPresent(routes::add);
    }
    return new io.jxds.api.model.route.VirtualHost(host.getName(), List.copyOf(domains), routes, retry, overrides);
  }

  private static Optional<io.jxds.api.model.route.Route> route(
      Route route, int index, String kind, String name, String path, Set<String> optionalPlugins)
      throws XdsResourceException {
    if (route.getMatch().getQueryParametersCount() > 0) {
      return Optional.empty(); // gRFC A28: never matches
    }
    io.jxds.api.model.route.RouteMatch match = RouteMatchDecoder.decode(route.getMatch(), kind, name, path + ".match");
    Optional<io.jxds.api.model.route.RouteAction> action = action(route, kind, name, path, optionalPlugins);
    if (action.isEmpty()) {
      return Optional.empty();
    }
    Map<String, HttpFilterConfig> overrides = HttpFilterRules.overrides(route.getTypedPerFilterConfigMap(), kind, name,
        path + ".typed_per_filter_config");
    String routeName = route.getName().isEmpty() ? "routes[" + index + "]" : route.getName();
    if (!route.hasRoute()) {
      return Optional.of(new io.jxds.api.model.route.Route(routeName, match, action.get(), Optional.empty(),
          Optional.empty(), List.of(), overrides));
    }
    RouteAction forward = route.getRoute();
    String at = path + ".route";
    Optional<io.jxds.api.model.route.RetryPolicy> retry = forward.hasRetryPolicy()
        ? Optional.of(RoutePolicyDecoder.retryPolicy(forward.getRetryPolicy(), kind, name, at + ".retry_policy"))
        : Optional.empty();
    return Optional.of(new io.jxds.api.model.route.Route(routeName, match, action.get(),
        RoutePolicyDecoder.maxStreamDuration(forward, kind, name, at), retry,
        RoutePolicyDecoder.hashPolicies(forward.getHashPolicyList(), kind, name, at), overrides));
  }

  private static Optional<io.jxds.api.model.route.RouteAction> action(
      Route route, String kind, String name, String path, Set<String> optionalPlugins)
      throws XdsResourceException {
    switch (route.getActionCase()) {
      case ROUTE:
        return routeAction(route.getRoute(), kind, name, path + ".route", optionalPlugins);
      case NON_FORWARDING_ACTION:
        return notForwarded("non_forwarding_action");
      case REDIRECT:
        return notForwarded("redirect");
      case DIRECT_RESPONSE:
        return notForwarded("direct_response");
      case FILTER_ACTION:
        return notForwarded("filter_action");
      default:
        throw Nack.of(kind, name, path + ".action must be set", "unset");
    }
  }

  private static Optional<io.jxds.api.model.route.RouteAction> notForwarded(String field) {
    return Optional.of(new io.jxds.api.model.route.RouteAction.NotForwarded(field));
  }

  private static Optional<io.jxds.api.model.route.RouteAction> routeAction(
      RouteAction action, String kind, String name, String path, Set<String> optionalPlugins)
      throws XdsResourceException {
    switch (action.getClusterSpecifierCase()) {
      case CLUSTER:
        if (action.getCluster().isEmpty()) {
          throw Nack.of(kind, name, path + ".cluster must not be empty", "\"\"");
        }
        return Optional.of(new io.jxds.api.model.route.RouteAction.Cluster(action.getCluster()));
      case WEIGHTED_CLUSTERS:
        return Optional.of(weightedClusters(action.getWeightedClusters(), kind, name, path + ".weighted_clusters"));
      case CLUSTER_SPECIFIER_PLUGIN:
        String plugin = action.getClusterSpecifierPlugin();
        if (optionalPlugins.contains(plugin)) {
          return Optional.empty(); // an optional plugin jxds lacks: the route is skipped
        }
        throw Nack.of(kind, name, path + ".cluster_specifier_plugin must name an entry of cluster_specifier_plugins",
            Nack.quote(plugin));
      default:
        return Optional.empty(); // cluster_header, an inline plugin, unset: gRFC A28 skips the route
    }
  }

  private static io.jxds.api.model.route.RouteAction weightedClusters(
      WeightedCluster weighted, String kind, String name, String path) throws XdsResourceException {
    if (weighted.getClustersCount() == 0) {
      throw Nack.of(kind, name, path + ".clusters must not be empty", "0 entries");
    }
    List<ClusterWeight> clusters = new ArrayList<>(weighted.getClustersCount());
    long total = 0;
    for (int k = 0; k < weighted.getClustersCount(); k++) {
      WeightedCluster.ClusterWeight c = weighted.getClusters(k);
      String at = path + ".clusters[" + k + "]";
      if (c.getName().isEmpty()) {
        throw Nack.of(kind, name, at + ".name must not be empty", "\"\"");
      }
      Map<String, HttpFilterConfig> overrides = HttpFilterRules.overrides(c.getTypedPerFilterConfigMap(), kind, name,
          at + ".typed_per_filter_config");
      long weight = Integer.toUnsignedLong(c.getWeight().getValue());
      total += weight;
      clusters.add(new ClusterWeight(c.getName(), weight, overrides));
    }
    if (total < 1 || total > MAX_UINT32) {
      throw Nack.of(kind, name, path + ".clusters[*].weight must sum to [1, 4294967295]", String.valueOf(total));
    }
    return new io.jxds.api.model.route.RouteAction.WeightedClusters(clusters);
  }

  /** The names of the optional plugins (jxds runs none); a required one, or a duplicate name, is a NACK. */
  private static Set<String> plugins(RouteConfiguration routes, String kind, String name, String path)
      throws XdsResourceException {
    Set<String> optional = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < routes.getClusterSpecifierPluginsCount(); i++) {
      ClusterSpecifierPlugin plugin = routes.getClusterSpecifierPlugins(i);
      String at = at(path, "cluster_specifier_plugins[" + i + "]");
      String pluginName = plugin.getExtension().getName();
      Integer before = seen.putIfAbsent(pluginName, i);
      if (before != null) {
        throw Nack.of(kind, name, at + ".extension.name must be unique",
            Nack.quote(pluginName) + " (also cluster_specifier_plugins[" + before + "])");
      }
      if (!plugin.getIsOptional()) {
        throw Nack.of(kind, name, at + ".extension.typed_config must be a plugin jxds supports (none) or is_optional",
            Nack.quote(plugin.getExtension().getTypedConfig().getTypeUrl()) + " (plugin " + Nack.quote(pluginName)
                + ")");
      }
      optional.add(pluginName);
    }
    return optional;
  }

  private static String at(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }
}
