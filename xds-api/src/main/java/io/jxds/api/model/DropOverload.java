package io.jxds.api.model;

import java.util.Objects;

/**
 * A share of RPCs the client must drop itself: an entry of
 * {@code ClusterLoadAssignment.policy.drop_overloads}.
 *
 * @param category the name reported in the drop's status and in load reports
 * @param partsPerMillion how many RPCs in a million to drop, in [0, 1 000 000]
 */
public record DropOverload(String category, int partsPerMillion) {
  /** One million: the denominator of {@link #partsPerMillion}. */
  public static final int MILLION = 1_000_000;

  /**
   * Creates a drop category.
   *
   * @param category the category's name
   * @param partsPerMillion in [0, {@value #MILLION}]
   * @throws IllegalArgumentException if {@code partsPerMillion} is out of range
   */
  public DropOverload {
    Objects.requireNonNull(category, "category");
    if (partsPerMillion < 0 || partsPerMillion > MILLION) {
      throw new IllegalArgumentException(
          "drop partsPerMillion must be in [0, 1000000], got " + partsPerMillion);
    }
  }

  @Override
  public String toString() {
    return category + "=" + partsPerMillion + "ppm";
  }
}
