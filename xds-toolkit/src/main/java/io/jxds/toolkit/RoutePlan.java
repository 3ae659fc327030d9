package io.jxds.toolkit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One route of a virtual host's table, in the order a client tries them (gRFC A28: the first that
 * matches wins).
 *
 * @param name the route's name ({@code routes[i]} when the configuration gives none)
 * @param match what it matches, as text: the path matcher, then each header matcher and the runtime
 *     fraction ({@code prefix "/pkg.S/" && header x-version exact "v2"})
 * @param clusters where it sends calls, each with its share; empty when it does not forward
 * @param notForwarded the action that gRPC cannot serve ({@code redirect}, {@code direct_response},
 *     ...): its calls fail; empty when it forwards
 */
public record RoutePlan(String name, String match, List<RouteCluster> clusters, Optional<String> notForwarded) {
  /**
   * Checks the components; the list is copied.
   *
   * @param name the name
   * @param match the match as text
   * @param clusters the clusters
   * @param notForwarded the action that does not forward
   */
  public RoutePlan {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    clusters = List.copyOf(clusters);
    Objects.requireNonNull(notForwarded, "notForwarded");
  }

  /**
   * A cluster of the route, by name.
   *
   * @param name the cluster's name
   * @return it, empty when the route does not name it
   */
  public Optional<RouteCluster> cluster(String name) {
    return clusters.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
