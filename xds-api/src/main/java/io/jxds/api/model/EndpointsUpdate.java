package io.jxds.api.model;

import java.util.List;
import java.util.Objects;

/**
 * A validated ClusterLoadAssignment (EDS resource).
 *
 * @param clusterName the assignment's {@code cluster_name}: the EDS service name it answers
 * @param localities every locality of non-zero weight, at every priority, in the control plane's
 *     order; priorities are contiguous from 0
 * @param dropOverloads drop categories, in order
 * @param overprovisioningFactor {@code policy.overprovisioning_factor}, in percent (default 140)
 * @param unweightedLocalities the localities the assignment lists with {@code load_balancing_weight}
 *     unset or 0, in its order: they take no traffic (gRFC A27) and are not in {@code localities};
 *     kept so that an error can say why a cluster has no usable endpoints
 */
public record EndpointsUpdate(
    String clusterName,
    List<Locality> localities,
    List<DropOverload> dropOverloads,
    int overprovisioningFactor,
    List<LocalityId> unweightedLocalities) {
  /** Envoy's default {@code overprovisioning_factor}. */
  public static final int DEFAULT_OVERPROVISIONING_FACTOR = 140;

  /**
   * Creates an assignment, checking its components; the lists are copied.
   *
   * @param clusterName the EDS service name, not empty
   * @param localities the localities
   * @param dropOverloads the drop categories
   * @param overprovisioningFactor in percent, not negative
   * @param unweightedLocalities the localities left out for their weight (unset or 0)
   * @throws IllegalArgumentException if the name is empty or the factor negative
   */
  public EndpointsUpdate {
    Objects.requireNonNull(clusterName, "clusterName");
    if (clusterName.isEmpty()) {
      throw new IllegalArgumentException("clusterName must not be empty");
    }
    localities = List.copyOf(localities);
    dropOverloads = List.copyOf(dropOverloads);
    unweightedLocalities = List.copyOf(unweightedLocalities);
    if (overprovisioningFactor < 0) {
      throw new IllegalArgumentException(
          "overprovisioningFactor must be >= 0, got " + overprovisioningFactor);
    }
  }

  /**
   * Creates an assignment that lists no locality without weight.
   *
   * @param clusterName the EDS service name, not empty
   * @param localities the localities
   * @param dropOverloads the drop categories
   * @param overprovisioningFactor in percent, not negative
   * @throws IllegalArgumentException if the name is empty or the factor negative
   */
  public EndpointsUpdate(
      String clusterName, List<Locality> localities, List<DropOverload> dropOverloads, int overprovisioningFactor) {
    this(clusterName, localities, dropOverloads, overprovisioningFactor, List.of());
  }

  /**
   * The number of priorities.
   *
   * @return one more than the highest priority of any locality; 0 when there is no locality
   */
  public int priorityCount() {
    int max = -1;
    for (Locality l : localities) {
      max = Math.max(max, l.priority());
    }
    return max + 1;
  }
}
