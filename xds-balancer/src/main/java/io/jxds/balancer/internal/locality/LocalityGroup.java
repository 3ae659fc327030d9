package io.jxds.balancer.internal.locality;

import java.util.List;

/**
 * The config of a {@link LocalityBalancer}: the localities of one priority.
 *
 * @param localities in the control plane's order; a repeated locality id counts once (the first)
 */
public record LocalityGroup(List<LocalityConfig> localities) {
  public LocalityGroup {
    localities = List.copyOf(localities);
  }

  /** A group of the given localities. */
  public static LocalityGroup of(LocalityConfig... localities) {
    return new LocalityGroup(List.of(localities));
  }
}
