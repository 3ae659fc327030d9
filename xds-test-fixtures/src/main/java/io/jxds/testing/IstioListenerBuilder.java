package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.http.stateful_session.v3.StatefulSession;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;

/**
 * Builds the client Listener istiod's proxyless gRPC generator sends for a service port (see
 * {@link IstioResources}): named {@code HOST:PORT} (the target must carry the port), an
 * {@code api_listener} whose HttpConnectionManager has {@code http_filters} = fault (an empty
 * {@code HTTPFault}), router, and routes over RDS (config source ADS) under
 * {@code outbound|PORT||HOST}. {@link #persistentSession()} adds the filter istiod puts first for a
 * service labelled for persistent sessions.
 */
public final class IstioListenerBuilder {
  /** The name istiod gives the fault filter. */
  public static final String FAULT_FILTER_NAME = "envoy.filters.http.fault";
  /** The name istiod gives the persistent-session filter. */
  public static final String STATEFUL_SESSION_FILTER_NAME = "envoy.filters.http.stateful_session";

  private final String name;
  private final String routeName;
  private String vip = "";
  private final int port;
  private boolean persistentSession;

  IstioListenerBuilder(String host, int port) {
    this.name = host + ":" + port;
    this.routeName = IstioResources.clusterName(host, port);
    this.port = port;
  }

  /**
   * The service's virtual IP, which istiod writes in {@code address} (gRPC ignores it).
   *
   * @param vip the cluster IP
   * @return this builder
   */
  public IstioListenerBuilder vip(String vip) {
    this.vip = vip;
    return this;
  }

  /**
   * The service is labelled for persistent sessions: istiod puts
   * {@code envoy.filters.http.stateful_session} (a {@code StatefulSession}, not optional) first.
   *
   * @return this builder
   */
  public IstioListenerBuilder persistentSession() {
    this.persistentSession = true;
    return this;
  }

  /**
   * The Listener.
   *
   * @return the listener as set so far
   */
  public Listener build() {
    HttpConnectionManager.Builder hcm = HttpConnectionManager.newBuilder()
        .setRds(Rds.newBuilder().setConfigSource(XdsResources.adsConfigSource()).setRouteConfigName(routeName));
    if (persistentSession) {
      hcm.addHttpFilters(HttpFilter.newBuilder().setName(STATEFUL_SESSION_FILTER_NAME)
          .setTypedConfig(Any.pack(StatefulSession.getDefaultInstance())));
    }
    hcm.addHttpFilters(HttpFilter.newBuilder().setName(FAULT_FILTER_NAME)
        .setTypedConfig(Any.pack(HTTPFault.getDefaultInstance())));
    hcm.addHttpFilters(HttpFilter.newBuilder().setName(ListenerBuilder.ROUTER_FILTER_NAME)
        .setTypedConfig(Any.pack(Router.getDefaultInstance())));
    Listener.Builder l = Listener.newBuilder()
        .setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm.build())));
    if (!vip.isEmpty()) {
      l.setAddress(Address.newBuilder()
          .setSocketAddress(SocketAddress.newBuilder().setAddress(vip).setPortValue(port)));
    }
    return l.build();
  }

  /**
   * The Listener packed in an {@code Any}.
   *
   * @return the packed listener
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
