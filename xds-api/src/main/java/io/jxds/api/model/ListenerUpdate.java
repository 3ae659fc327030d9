package io.jxds.api.model;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated client Listener (LDS resource): an {@code api_listener} holding an
 * {@code HttpConnectionManager} (gRFC A27), reduced to what a gRPC client reads from it.
 *
 * <p>Exactly one of {@code rdsName} and {@code inlineRouteConfiguration} is present: the routes
 * come over RDS under that name ({@code rds.route_config_name}), or inline
 * ({@code route_config}).
 *
 * @param name the listener's {@code name}
 * @param rdsName the RouteConfiguration to watch, when the routes come over RDS
 * @param inlineRouteConfiguration the routes, when inline
 * @param httpFilters the filters jxds runs, in order; the last is the router (gRFC A39)
 * @param maxStreamDuration {@code common_http_protocol_options.max_stream_duration}, the default
 *     call timeout (gRFC A31); empty when unset or not positive
 */
public record ListenerUpdate(
    String name,
    Optional<String> rdsName,
    Optional<RouteConfigurationUpdate> inlineRouteConfiguration,
    List<HttpFilter> httpFilters,
    Optional<Duration> maxStreamDuration) {
  /**
   * Checks the components; the list is copied.
   *
   * @param name the listener's name, not empty
   * @param rdsName the RouteConfiguration's name, when over RDS
   * @param inlineRouteConfiguration the routes, when inline
   * @param httpFilters at least one filter, the router last
   * @param maxStreamDuration the default call timeout, positive when present
   * @throws IllegalArgumentException if the name is empty, both or neither route source is
   *     present, the last filter is not the router or the duration is not positive
   */
  public ListenerUpdate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rdsName, "rdsName");
    Objects.requireNonNull(inlineRouteConfiguration, "inlineRouteConfiguration");
    httpFilters = List.copyOf(httpFilters);
    Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    if (rdsName.isPresent() == inlineRouteConfiguration.isPresent()) {
      throw new IllegalArgumentException("exactly one of rdsName and inlineRouteConfiguration must be present");
    }
    if (httpFilters.isEmpty() || !httpFilters.get(httpFilters.size() - 1).isRouter()) {
      throw new IllegalArgumentException("httpFilters must end with the router, got " + httpFilters);
    }
    if (maxStreamDuration.isPresent() && (maxStreamDuration.get().isNegative() || maxStreamDuration.get().isZero())) {
      throw new IllegalArgumentException("maxStreamDuration must be positive, got " + maxStreamDuration.get());
    }
  }

  /**
   * A listener whose routes come over RDS, with the router filter alone and no default timeout.
   *
   * @param name the listener's name
   * @param rdsName the RouteConfiguration to watch
   * @return the listener
   */
  public static ListenerUpdate rds(String name, String rdsName) {
    return new ListenerUpdate(name, Optional.of(rdsName), Optional.empty(), List.of(HttpFilter.router()),
        Optional.empty());
  }

  /**
   * A listener with inline routes, with the router filter alone and no default timeout.
   *
   * @param name the listener's name
   * @param routes the routes
   * @return the listener
   */
  public static ListenerUpdate inline(String name, RouteConfigurationUpdate routes) {
    return new ListenerUpdate(name, Optional.empty(), Optional.of(routes), List.of(HttpFilter.router()),
        Optional.empty());
  }
}
