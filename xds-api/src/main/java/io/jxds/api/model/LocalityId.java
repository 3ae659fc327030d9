package io.jxds.api.model;

import java.util.Objects;

/**
 * Where a group of endpoints runs: envoy's {@code config.core.v3.Locality}. Absent parts are empty
 * strings, never null, so {@code ("us-east", "", "")} and a locality that set only its region are
 * the same value.
 */
public record LocalityId(String region, String zone, String subZone) {
  /** The locality with every part empty; what a ClusterLoadAssignment entry without one means. */
  public static final LocalityId EMPTY = new LocalityId("", "", "");

  /**
   * Creates a locality id.
   *
   * @param region the region, empty when unset
   * @param zone the zone, empty when unset
   * @param subZone the sub-zone, empty when unset
   */
  public LocalityId {
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(subZone, "subZone");
  }

  @Override
  public String toString() {
    return "{region=\"" + region + "\", zone=\"" + zone + "\", sub_zone=\"" + subZone + "\"}";
  }
}
