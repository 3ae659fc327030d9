package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a client-side envoy v3 {@code Listener} as gRPC expects one: an {@code api_listener}
 * holding an {@code HttpConnectionManager} whose {@code http_filters} end with the router filter
 * ({@code envoy.extensions.filters.http.router.v3.Router}) and whose routes come either over RDS
 * (config source ADS) or inline. Obtain one from {@link XdsResources#listener(String)}.
 */
public final class ListenerBuilder {
  /** The HTTP connection manager's filter name. */
  public static final String HCM_NAME = "envoy.filters.network.http_connection_manager";
  /** The router filter's name. */
  public static final String ROUTER_FILTER_NAME = "envoy.filters.http.router";

  private final String name;
  private final HttpConnectionManager.Builder hcm = HttpConnectionManager.newBuilder();
  private final List<HttpFilter> beforeRouter = new ArrayList<>();

  ListenerBuilder(String name) {
    this.name = name;
  }

  /**
   * Routes come over RDS, on the same ADS stream, under {@code routeConfigName}.
   *
   * @param routeConfigName the {@code RouteConfiguration} to fetch over RDS
   * @return this builder
   */
  public ListenerBuilder rdsRouteConfig(String routeConfigName) {
    hcm.clearRouteConfig()
        .setRds(
            Rds.newBuilder()
                .setConfigSource(XdsResources.adsConfigSource())
                .setRouteConfigName(routeConfigName));
    return this;
  }

  /**
   * Routes are inline in the listener.
   *
   * @param routes the routes
   * @return this builder
   */
  public ListenerBuilder inlineRouteConfig(RouteConfiguration routes) {
    hcm.clearRds().setRouteConfig(routes);
    return this;
  }

  /**
   * Adds a fault-injection filter ({@code envoy.extensions.filters.http.fault.v3.HTTPFault}, gRFC
   * A33) before the router; filters run in the order they are added.
   *
   * @param filterName the filter's {@code name}, what {@code typed_per_filter_config} keys name
   * @param fault its config
   * @return this builder
   */
  public ListenerBuilder faultFilter(String filterName, HTTPFault fault) {
    beforeRouter.add(HttpFilter.newBuilder().setName(filterName).setTypedConfig(Any.pack(fault)).build());
    return this;
  }

  /**
   * The underlying HttpConnectionManager builder, for fields this class has no setter for.
   *
   * @return the builder this one writes to; changes show in {@link #build()}
   */
  public HttpConnectionManager.Builder httpConnectionManager() {
    return hcm;
  }

  /**
   * The {@code Listener}; the filters added with {@link #faultFilter} and the router filter are
   * appended unless the HCM already has filters.
   *
   * @return the listener as set so far
   */
  public Listener build() {
    HttpConnectionManager.Builder copy = hcm.clone();
    if (copy.getHttpFiltersCount() == 0) {
      copy.addAllHttpFilters(beforeRouter);
      copy.addHttpFilters(
          HttpFilter.newBuilder()
              .setName(ROUTER_FILTER_NAME)
              .setTypedConfig(Any.pack(Router.getDefaultInstance())));
    }
    return Listener.newBuilder()
        .setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(copy.build())))
        .build();
  }

  /**
   * The {@code Listener} packed in an {@code Any}.
   *
   * @return the packed listener
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
