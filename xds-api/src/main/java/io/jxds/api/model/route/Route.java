package io.jxds.api.model.route;

import java.util.Objects;

/**
 * One route of a virtual host: the first route whose {@link RouteMatch match} matches a call
 * decides its {@link RouteAction action} (gRFC A28).
 *
 * @param name the route's {@code name}, or {@code routes[N]} (its index in the virtual host's
 *     {@code routes}) when the control plane gave none: what errors name
 * @param match what a call must match
 * @param action what happens to a call that matches
 */
public record Route(String name, RouteMatch match, RouteAction action) {
  /**
   * Checks the components.
   *
   * @param name the route's name, not empty
   * @param match the match
   * @param action the action
   * @throws IllegalArgumentException if the name is empty
   */
  public Route {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
  }
}
