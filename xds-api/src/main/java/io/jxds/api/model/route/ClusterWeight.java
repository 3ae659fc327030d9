package io.jxds.api.model.route;

import java.util.Objects;

/**
 * One entry of a route's {@code weighted_clusters.clusters}.
 *
 * @param name the cluster's name
 * @param weight an unsigned 32-bit value; 0 is allowed (the cluster gets no calls, but the client
 *     still watches it, as grpc-java does)
 */
public record ClusterWeight(String name, long weight) {
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  /**
   * Checks the components.
   *
   * @param name the cluster's name, not empty
   * @param weight in [0, 2^32-1]
   * @throws IllegalArgumentException if the name is empty or the weight out of range
   */
  public ClusterWeight {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    if (weight < 0 || weight > MAX_UINT32) {
      throw new IllegalArgumentException("weight must be in [0, 2^32-1], got " + weight);
    }
  }
}
