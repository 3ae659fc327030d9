package io.jxds.toolkit;

import java.util.Objects;

/**
 * One drop category ({@code policy.drop_overloads}) and the share of all RPCs it drops. Categories
 * draw in order, each independently (ARCHITECTURE.md, "The load-balancing tree", EDS), so a
 * category's rate is its own fraction of what the categories before it let through: two of 10 %
 * drop 10 % and 9 %.
 *
 * @param category the category's name
 * @param partsPerMillion its configured rate, in parts per million
 * @param rate the share of all RPCs this category drops
 */
public record DropPlan(String category, int partsPerMillion, Fraction rate) {
  /**
   * Checks the components.
   *
   * @param category the name
   * @param partsPerMillion the configured rate
   * @param rate the effective rate
   */
  public DropPlan {
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(rate, "rate");
  }
}
