package io.jxds.api.model.route;

import io.jxds.api.model.filter.HttpFilterConfig;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a route's {@code weighted_clusters.clusters}.
 *
 * @param name the cluster's name
 * @param weight an unsigned 32-bit value; 0 is allowed (the cluster gets no calls, but the client
 *     still watches it, as grpc-java does)
 * @param filterOverrides its {@code typed_per_filter_config} by filter name: for the calls sent to
 *     this cluster, over the route's and the virtual host's (gRFC A39); only filters jxds runs
 */
public record ClusterWeight(String name, long weight, Map<String, HttpFilterConfig> filterOverrides) {
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  /**
   * Checks the components.
   *
   * @param name the cluster's name, not empty
   * @param weight in [0, 2^32-1]
   * @param filterOverrides the filter overrides
   * @throws IllegalArgumentException if the name is empty or the weight out of range
   */
  public ClusterWeight {
    Objects.requireNonNull(name, "name");
    filterOverrides = Map.copyOf(filterOverrides);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    if (weight < 0 || weight > MAX_UINT32) {
      throw new IllegalArgumentException("weight must be in [0, 2^32-1], got " + weight);
    }
  }

  /**
   * A weighted cluster without filter overrides.
   *
   * @param name the cluster's name, not empty
   * @param weight in [0, 2^32-1]
   */
  public ClusterWeight(String name, long weight) {
    this(name, weight, Map.of());
  }
}
