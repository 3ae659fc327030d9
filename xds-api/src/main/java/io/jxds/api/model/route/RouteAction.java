package io.jxds.api.model.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a route does with the calls it matches (gRFC A28): send each to one {@link Cluster}, to one
 * of {@link WeightedClusters} chosen once per call, or fail it, for an action gRPC cannot serve
 * ({@link NotForwarded}).
 *
 * <p>The {@code route} action's timeout, retry and hash settings are on the {@link Route}, its
 * {@code typed_per_filter_config} too; a weighted cluster's is on its {@link ClusterWeight}.
 */
public sealed interface RouteAction
    permits RouteAction.Cluster, RouteAction.WeightedClusters, RouteAction.NotForwarded {
  /**
   * Every cluster this action may send a call to, in the order the resource lists them, weight 0
   * included: the clusters the client watches for this route.
   *
   * @return the cluster names, without duplicates; empty for {@link NotForwarded}
   */
  List<String> clusterNames();

  /**
   * {@code route.cluster}: every call goes to one cluster.
   *
   * @param name the cluster's name
   */
  record Cluster(String name) implements RouteAction {
    /**
     * Checks the name.
     *
     * @param name the cluster's name, not empty
     * @throws IllegalArgumentException if the name is empty
     */
    public Cluster {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("name must not be empty");
      }
    }

    @Override
    public List<String> clusterNames() {
      return List.of(name);
    }
  }

  /**
   * {@code route.weighted_clusters}: each call goes to one cluster, chosen once per call with
   * probability weight / total (gRFC A28). The total is the sum of the weights: the deprecated
   * {@code total_weight} is not read, as grpc-java does not read it.
   *
   * @param clusters the clusters and their weights, in order
   */
  record WeightedClusters(List<ClusterWeight> clusters) implements RouteAction {
    private static final long MAX_UINT32 = 0xFFFF_FFFFL;

    /**
     * Checks the clusters; the list is copied.
     *
     * @param clusters at least one, with weights summing to [1, 2^32-1]
     * @throws IllegalArgumentException if the list is empty or the sum out of range
     */
    public WeightedClusters {
      clusters = List.copyOf(clusters);
      if (clusters.isEmpty()) {
        throw new IllegalArgumentException("clusters must not be empty");
      }
      long total = sum(clusters);
      if (total < 1 || total > MAX_UINT32) {
        throw new IllegalArgumentException("weights must sum to [1, 2^32-1], got " + total);
      }
    }

    /**
     * The sum of the weights.
     *
     * @return in [1, 2^32-1]
     */
    public long totalWeight() {
      return sum(clusters);
    }

    @Override
    public List<String> clusterNames() {
      List<String> names = new ArrayList<>(clusters.size());
      for (ClusterWeight c : clusters) {
        if (!names.contains(c.name())) {
          names.add(c.name());
        }
      }
      return List.copyOf(names);
    }

    private static long sum(List<ClusterWeight> clusters) {
      long total = 0;
      for (ClusterWeight c : clusters) {
        total += c.weight(); // at most 2^32 entries of at most 2^32-1: no overflow in practice
      }
      return total;
    }
  }

  /**
   * An action gRPC cannot serve: {@code non_forwarding_action}, {@code redirect},
   * {@code direct_response} or {@code filter_action}. The resource is accepted and the route still
   * matches calls (so that the routes after it do not take them), but each call it matches fails
   * UNAVAILABLE naming the route. grpc-java NACKs the whole resource for the last three, which
   * istiod emits for a VirtualService's redirect and direct responses.
   *
   * @param field the action's field name, e.g. {@code redirect}
   */
  record NotForwarded(String field) implements RouteAction {
    /**
     * Checks the field name.
     *
     * @param field the action's field name
     */
    public NotForwarded {
      Objects.requireNonNull(field, "field");
    }

    @Override
    public List<String> clusterNames() {
      return List.of();
    }
  }
}
