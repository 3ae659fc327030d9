package io.jxds.testing;

import java.util.Objects;

/**
 * Resources shaped like those istiod generates for a proxyless gRPC client (its {@code grpc} xDS
 * generator, used for nodes whose metadata says {@code GENERATOR: grpc}), so a test can check that a
 * client in an Istio mesh gets its clusters. Written from Istio's documentation and source, in
 * jxds's own code; plaintext only (istiod adds an {@code UpstreamTlsContext} only for
 * {@code ISTIO_MUTUAL} DestinationRules).
 *
 * <p>What istiod sends, and what the builders reproduce:
 *
 * <ul>
 *   <li><b>Names.</b> A service port's cluster is {@code outbound|PORT||HOST} and a DestinationRule
 *       subset's is {@code outbound|PORT|SUBSET|HOST} ({@link #clusterName}, {@link
 *       #subsetClusterName}); the EDS service name is the cluster name, so the
 *       {@code ClusterLoadAssignment} has that name too. Such names need percent-encoding in a
 *       channel target: {@code XdsClusterPolicy.target(name)}.
 *   <li><b>Cluster</b> ({@link IstioClusterBuilder}): type EDS, {@code eds_config} ADS, the load
 *       balancer from the DestinationRule: none set (ROUND_ROBIN) without one, {@code
 *       LEAST_REQUEST} for {@code simple: LEAST_REQUEST}, {@code RING_HASH} with {@code
 *       ring_hash_lb_config.minimum_ring_size} 1024 for a {@code consistentHash}, {@code MAGLEV} for
 *       {@code consistentHash.maglev}; and for {@code connectionPool.http.http2MaxRequests} a
 *       circuit breaker with {@code max_requests} alone (gRFC A32 reads no other threshold). The
 *       request hash itself ({@code consistentHash.httpHeaderName}) goes into the route's {@code
 *       hash_policy}, not the cluster. (Sidecars get LEAST_REQUEST by default; proxyless clients
 *       do not.)
 *   <li><b>Endpoints</b> ({@link IstioEndpointsBuilder}): localities from the {@code
 *       region/zone/subzone} label, each weighted by the sum of its endpoint weights; endpoints
 *       HEALTHY with {@code load_balancing_weight} 1 unless set, and filter metadata {@code istio:
 *       {workload: "NAME;NAMESPACE;SERVICE;REVISION;CLUSTER_ID"}} and {@code
 *       envoy.transport_socket_match: {tlsMode: istio}}.
 *   <li><b>Listener</b> ({@link IstioListenerBuilder}): named {@code HOST:PORT}; HttpConnectionManager
 *       filters fault (empty) and router, preceded by the persistent-session filter for services
 *       labelled for it; routes over RDS under {@code outbound|PORT||HOST}.
 *   <li><b>RouteConfiguration</b> ({@link IstioRouteBuilder}): named {@code outbound|PORT||HOST}, one
 *       virtual host whose domains include the absolute {@code FQDN.} forms of istiod 1.28+, and a
 *       VirtualService's routes (header matches, weighted subsets, redirects, direct responses, CORS
 *       overrides) or the default route, each forwarding one with istiod's timeout 0 and default
 *       retry policy, and the {@code hash_policy} of a DestinationRule's
 *       {@code consistentHash.httpHeaderName}.
 * </ul>
 */
public final class IstioResources {
  /** The cluster id istiod uses for its own Kubernetes cluster unless configured otherwise. */
  public static final String DEFAULT_CLUSTER_ID = "Kubernetes";

  /** The {@code minimum_ring_size} istiod sets for a {@code consistentHash} without a ring size. */
  public static final long DEFAULT_MINIMUM_RING_SIZE = 1024;

  private IstioResources() {}

  /**
   * The cluster name of a service port: {@code outbound|PORT||HOST}.
   *
   * @param host the service's fully qualified host, e.g. {@code echo.default.svc.cluster.local}
   * @param port the service port
   * @return the cluster name
   * @throws IllegalArgumentException if {@code host} is empty or {@code port} is not in 1..65535
   */
  public static String clusterName(String host, int port) {
    return subsetClusterName(host, port, "");
  }

  /**
   * The cluster name of a DestinationRule subset: {@code outbound|PORT|SUBSET|HOST}.
   *
   * @param host the service's fully qualified host
   * @param port the service port
   * @param subset the subset name ({@code ""}: the service port's own cluster)
   * @return the cluster name
   * @throws IllegalArgumentException if {@code host} is empty or {@code port} is not in 1..65535
   */
  public static String subsetClusterName(String host, int port, String subset) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(subset, "subset");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    return "outbound|" + port + "|" + subset + "|" + host;
  }

  /**
   * The Cluster istiod sends for a service port, before DestinationRule settings.
   *
   * @param host the service's fully qualified host
   * @param port the service port
   * @return a builder for {@code outbound|PORT||HOST}
   */
  public static IstioClusterBuilder cluster(String host, int port) {
    return new IstioClusterBuilder(clusterName(host, port));
  }

  /**
   * The Cluster istiod sends for a DestinationRule subset.
   *
   * @param host the service's fully qualified host
   * @param port the service port
   * @param subset the subset name
   * @return a builder for {@code outbound|PORT|SUBSET|HOST}
   */
  public static IstioClusterBuilder subsetCluster(String host, int port, String subset) {
    return new IstioClusterBuilder(subsetClusterName(host, port, subset));
  }

  /**
   * The client Listener istiod sends for a service port.
   *
   * @param host the service's fully qualified host
   * @param port the service port
   * @return a builder for the listener named {@code HOST:PORT}
   * @throws IllegalArgumentException if {@code host} is empty or {@code port} is not in 1..65535
   */
  public static IstioListenerBuilder listener(String host, int port) {
    clusterName(host, port); // checks the arguments
    return new IstioListenerBuilder(host, port);
  }

  /**
   * The RouteConfiguration istiod sends for a service port.
   *
   * @param host the service's fully qualified host, e.g. {@code echo.default.svc.cluster.local}
   * @param port the service port
   * @return a builder for the route configuration named {@code outbound|PORT||HOST}
   * @throws IllegalArgumentException if {@code host} is empty or {@code port} is not in 1..65535
   */
  public static IstioRouteBuilder routeConfiguration(String host, int port) {
    return new IstioRouteBuilder(host, port);
  }

  /**
   * The ClusterLoadAssignment istiod sends for a service port's cluster.
   *
   * @param host the service's fully qualified host; its first two labels give the workloads'
   *     canonical service and namespace in the endpoint metadata
   * @param port the service port
   * @return a builder for the assignment named {@code outbound|PORT||HOST}
   */
  public static IstioEndpointsBuilder endpoints(String host, int port) {
    return new IstioEndpointsBuilder(clusterName(host, port), host);
  }

  /**
   * The ClusterLoadAssignment istiod sends for a subset's cluster (the subset's endpoints only).
   *
   * @param host the service's fully qualified host
   * @param port the service port
   * @param subset the subset name
   * @return a builder for the assignment named {@code outbound|PORT|SUBSET|HOST}
   */
  public static IstioEndpointsBuilder subsetEndpoints(String host, int port, String subset) {
    return new IstioEndpointsBuilder(subsetClusterName(host, port, subset), host);
  }
}
