package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import java.util.List;

/**
 * Builds an envoy v3 {@code RouteConfiguration}. Obtain one from {@link XdsResources#route(String)}.
 */
public final class RouteBuilder {
  private final RouteConfiguration.Builder routes;

  RouteBuilder(String name) {
    routes = RouteConfiguration.newBuilder().setName(name);
  }

  /**
   * Adds a virtual host for {@code domains} whose one route sends prefix "/" to {@code cluster}.
   *
   * @param name the virtual host's name
   * @param domains the domains it serves, e.g. {@code "*"}
   * @param cluster the cluster every RPC goes to
   * @return this builder
   */
  public RouteBuilder virtualHost(String name, List<String> domains, String cluster) {
    routes.addVirtualHosts(
        VirtualHost.newBuilder()
            .setName(name)
            .addAllDomains(domains)
            .addRoutes(
                Route.newBuilder()
                    .setMatch(RouteMatch.newBuilder().setPrefix("/"))
                    .setRoute(RouteAction.newBuilder().setCluster(cluster))));
    return this;
  }

  /**
   * Adds a virtual host as given.
   *
   * @param host the virtual host
   * @return this builder
   */
  public RouteBuilder virtualHost(VirtualHost host) {
    routes.addVirtualHosts(host);
    return this;
  }

  /**
   * The {@code RouteConfiguration}.
   *
   * @return the route configuration as set so far
   */
  public RouteConfiguration build() {
    return routes.build();
  }

  /**
   * The {@code RouteConfiguration} packed in an {@code Any}.
   *
   * @return the packed route configuration
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
