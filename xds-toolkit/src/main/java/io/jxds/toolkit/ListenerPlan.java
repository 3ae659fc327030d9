package io.jxds.toolkit;

import io.jxds.api.model.RouteConfigurationUpdate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an {@code xds:///} channel on this listener routes by: its route configuration (inline, or
 * the RDS resource it names) and every virtual host's ordered route table.
 *
 * @param name the listener's name
 * @param state whether it routes, and if not why
 * @param detail what calls fail with when it does not route (the text of their UNAVAILABLE); empty
 *     when it routes
 * @param routeConfigurationName the RDS resource it names; empty for inline routes or a NACKed listener
 * @param routes the route configuration in force, as jxds decodes it; empty when it does not route
 * @param virtualHosts the route configuration's virtual hosts, in order
 */
public record ListenerPlan(
    String name,
    State state,
    String detail,
    String routeConfigurationName,
    Optional<RouteConfigurationUpdate> routes,
    List<VirtualHostPlan> virtualHosts) {
  /** Whether a listener routes. */
  public enum State {
    /** Its route configuration is in the snapshot and accepted. */
    ROUTING,
    /** The Listener would be NACKed: without an earlier good one, calls fail. */
    LISTENER_NACKED,
    /** The RouteConfiguration it names is not in the snapshot: calls wait, then fail. */
    ROUTES_MISSING,
    /** The RouteConfiguration it names would be NACKed: without an earlier good one, calls fail. */
    ROUTES_NACKED
  }

  /**
   * Checks the components; the list is copied.
   *
   * @param name the name
   * @param state the state
   * @param detail the failure text
   * @param routeConfigurationName the RDS name
   * @param routes the route configuration
   * @param virtualHosts the virtual hosts
   */
  public ListenerPlan {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(routeConfigurationName, "routeConfigurationName");
    Objects.requireNonNull(routes, "routes");
    virtualHosts = List.copyOf(virtualHosts);
  }

  /**
   * A virtual host by name.
   *
   * @param name the virtual host's name
   * @return it, empty when there is none such
   */
  public Optional<VirtualHostPlan> virtualHost(String name) {
    return virtualHosts.stream().filter(v -> v.name().equals(name)).findFirst();
  }

  /**
   * Whether the routes come inline in the listener.
   *
   * @return true for inline routes
   */
  public boolean inline() {
    return state != State.LISTENER_NACKED && routeConfigurationName.isEmpty();
  }
}
