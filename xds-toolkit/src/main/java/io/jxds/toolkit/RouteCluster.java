package io.jxds.toolkit;

import java.util.Objects;

/**
 * A cluster a route sends calls to, with its weight and its share of the route's calls: a
 * {@code weighted_clusters} entry's weight over their sum (gRFC A28: each call draws once), or
 * weight 1 and share 1 for a route to one cluster.
 *
 * @param name the cluster's name
 * @param weight its weight, as the route configuration gives it
 * @param share its share of the calls (of the route's, or for a request of all its calls)
 */
public record RouteCluster(String name, long weight, Fraction share) {
  /**
   * Checks the components.
   *
   * @param name the cluster
   * @param weight the weight
   * @param share the share
   */
  public RouteCluster {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(share, "share");
  }
}
