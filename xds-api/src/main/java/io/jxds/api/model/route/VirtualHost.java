package io.jxds.api.model.route;

import io.jxds.api.model.filter.HttpFilterConfig;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One of a RouteConfiguration's {@code virtual_hosts}: the routes for the authorities its domains
 * match.
 *
 * @param name the virtual host's {@code name}
 * @param domains its {@code domains} as jxds matches them: lower case, a trailing dot removed
 *     ({@code foo.ns.svc.cluster.local.} and {@code foo.ns.svc.cluster.local.:8080}, which istiod
 *     emits, name the same host as without the dot), malformed ones (empty, starting with a dot, a
 *     {@code *} that is not the first or last character, more than one {@code *}) left out, as
 *     they can match no authority
 * @param routes the routes, in order; routes gRPC never matches ({@code query_parameters}, a
 *     {@code cluster_header} or an unsupported cluster specifier) left out
 * @param retryPolicy {@code retry_policy}: the retry policy of the routes that have none of their
 *     own (gRFC A44; grpc-java ignores it)
 * @param filterOverrides its {@code typed_per_filter_config} by filter name: over the listener's
 *     config for its calls, under a route's (gRFC A39); only filters jxds runs
 */
public record VirtualHost(String name, List<String> domains, List<Route> routes, Optional<RetryPolicy> retryPolicy,
    Map<String, HttpFilterConfig> filterOverrides) {
  /**
   * Checks the components; the lists are copied.
   *
   * @param name the virtual host's name
   * @param domains the domains
   * @param routes the routes
   * @param retryPolicy the virtual host's retry policy
   * @param filterOverrides the filter overrides
   */
  public VirtualHost {
    filterOverrides = Map.copyOf(filterOverrides);
    Objects.requireNonNull(name, "name");
    domains = List.copyOf(domains);
    routes = List.copyOf(routes);
    Objects.requireNonNull(retryPolicy, "retryPolicy");
  }

  /**
   * A virtual host without filter overrides.
   *
   * @param name the virtual host's name
   * @param domains the domains
   * @param routes the routes
   * @param retryPolicy the virtual host's retry policy
   */
  public VirtualHost(String name, List<String> domains, List<Route> routes, Optional<RetryPolicy> retryPolicy) {
    this(name, domains, routes, retryPolicy, Map.of());
  }

  /**
   * A virtual host without a retry policy.
   *
   * @param name the virtual host's name
   * @param domains the domains
   * @param routes the routes
   */
  public VirtualHost(String name, List<String> domains, List<Route> routes) {
    this(name, domains, routes, Optional.empty(), Map.of());
  }
}
