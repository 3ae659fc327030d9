package io.jxds.toolkit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A virtual host of a listener's route configuration: the domains a channel's authority is matched
 * against (gRFC A27: the most specific wins) and its ordered route table.
 *
 * @param name the virtual host's name
 * @param domains its domains as jxds matches them (lower case, an absolute name's trailing dot
 *     removed, malformed ones left out)
 * @param routes its routes, in order
 */
public record VirtualHostPlan(String name, List<String> domains, List<RoutePlan> routes) {
  /**
   * Checks the components; the lists are copied.
   *
   * @param name the name
   * @param domains the domains
   * @param routes the routes
   */
  public VirtualHostPlan {
    Objects.requireNonNull(name, "name");
    domains = List.copyOf(domains);
    routes = List.copyOf(routes);
  }

  /**
   * A route by name.
   *
   * @param name the route's name
   * @return the route, empty when there is none such
   */
  public Optional<RoutePlan> route(String name) {
    return routes.stream().filter(r -> r.name().equals(name)).findFirst();
  }
}
