package io.jxds.api.model;

import io.jxds.api.model.route.VirtualHost;
import java.util.List;
import java.util.Objects;

/**
 * A validated RouteConfiguration: an RDS resource, or the {@code route_config} inline in a
 * Listener.
 *
 * @param name the {@code name} (may be empty for an inline route configuration)
 * @param virtualHosts the virtual hosts, in order; the client picks one by the channel's authority
 */
public record RouteConfigurationUpdate(String name, List<VirtualHost> virtualHosts) {
  /**
   * Checks the components; the list is copied.
   *
   * @param name the name
   * @param virtualHosts the virtual hosts
   */
  public RouteConfigurationUpdate {
    Objects.requireNonNull(name, "name");
    virtualHosts = List.copyOf(virtualHosts);
  }
}
