package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds a ClusterLoadAssignment as istiod does for a proxyless gRPC client (see {@link
 * IstioResources}). {@link #locality} opens a locality; the endpoints added after it belong to it.
 * At {@link #build()} each locality's {@code load_balancing_weight} is the sum of its endpoints'
 * weights, as istiod computes it.
 *
 * <pre>{@code
 * IstioResources.endpoints("echo.default.svc.cluster.local", 8080)
 *     .locality("us-east1/us-east1-b/rack-1")
 *     .endpoint("echo-v1-7d9f", "10.0.0.1", 8080)
 *     .endpoint("echo-v1-5c2a", "10.0.0.2", 8080, 3)
 *     .build();
 * }</pre>
 */
public final class IstioEndpointsBuilder {
  /** The filter-metadata key of the workload's identity ({@code istio}). */
  public static final String ISTIO_METADATA_KEY = "istio";
  /** The filter-metadata key transport-socket matches read ({@code envoy.transport_socket_match}). */
  public static final String TRANSPORT_SOCKET_MATCH_KEY = "envoy.transport_socket_match";

  private final ClusterLoadAssignment.Builder assignment;
  private final String namespace;
  private final String canonicalService;
  private final List<LocalityLbEndpoints.Builder> localities = new ArrayList<>();
  private String canonicalRevision = "latest";
  private String clusterId = IstioResources.DEFAULT_CLUSTER_ID;

  IstioEndpointsBuilder(String clusterName, String host) {
    assignment = ClusterLoadAssignment.newBuilder().setClusterName(clusterName);
    // A Kubernetes service host is NAME.NAMESPACE.svc.DOMAIN.
    String[] labels = host.split("\\.", -1);
    canonicalService = labels[0];
    namespace = labels.length > 1 ? labels[1] : "default";
  }

  /**
   * Sets the canonical revision in the metadata of endpoints added from now on (the workload's
   * {@code service.istio.io/canonical-revision} label; istiod's default is {@code latest}).
   *
   * @param revision the revision, e.g. {@code v1}
   * @return this builder
   */
  public IstioEndpointsBuilder canonicalRevision(String revision) {
    canonicalRevision = Objects.requireNonNull(revision, "revision");
    return this;
  }

  /**
   * Sets the cluster id in the metadata of endpoints added from now on (default {@value
   * IstioResources#DEFAULT_CLUSTER_ID}).
   *
   * @param id the id of the Kubernetes cluster the workloads run in
   * @return this builder
   */
  public IstioEndpointsBuilder clusterId(String id) {
    clusterId = Objects.requireNonNull(id, "id");
    return this;
  }

  /**
   * Opens a locality at priority 0, from Istio's {@code region/zone/subzone} form (trailing parts
   * may be left out; {@code ""} is no locality).
   *
   * @param locality the locality, e.g. {@code us-east1/us-east1-b/rack-1}
   * @return this builder
   */
  public IstioEndpointsBuilder locality(String locality) {
    String[] parts = Objects.requireNonNull(locality, "locality").split("/", 3);
    Locality.Builder id = Locality.newBuilder().setRegion(parts[0]);
    if (parts.length > 1) {
      id.setZone(parts[1]);
    }
    if (parts.length > 2) {
      id.setSubZone(parts[2]);
    }
    localities.add(LocalityLbEndpoints.newBuilder().setLocality(id));
    return this;
  }

  /**
   * Sets the open locality's {@code priority} (istiod sets priorities for locality failover).
   *
   * @param priority 0 is the highest
   * @return this builder
   * @throws IllegalStateException if no locality is open
   */
  public IstioEndpointsBuilder priority(int priority) {
    current().setPriority(priority);
    return this;
  }

  /**
   * Adds a HEALTHY endpoint of weight 1 to the open locality.
   *
   * @param workload the workload (pod) name, for the endpoint metadata
   * @param ip an IP literal
   * @param port the endpoint port
   * @return this builder
   * @throws IllegalStateException if no locality is open
   */
  public IstioEndpointsBuilder endpoint(String workload, String ip, int port) {
    return endpoint(workload, ip, port, 1, HealthStatus.HEALTHY);
  }

  /**
   * Adds a HEALTHY endpoint with {@code load_balancing_weight} {@code weight} to the open locality.
   *
   * @param workload the workload (pod) name, for the endpoint metadata
   * @param ip an IP literal
   * @param port the endpoint port
   * @param weight the endpoint's weight, unsigned 32-bit
   * @return this builder
   * @throws IllegalStateException if no locality is open
   */
  public IstioEndpointsBuilder endpoint(String workload, String ip, int port, long weight) {
    return endpoint(workload, ip, port, weight, HealthStatus.HEALTHY);
  }

  /**
   * Adds an endpoint to the open locality (istiod sends UNHEALTHY endpoints only for services that
   * publish not-ready addresses, DRAINING ones only to persistent-session clusters).
   *
   * @param workload the workload (pod) name, for the endpoint metadata
   * @param ip an IP literal
   * @param port the endpoint port
   * @param weight the endpoint's weight, unsigned 32-bit
   * @param health the endpoint's {@code health_status}
   * @return this builder
   * @throws IllegalStateException if no locality is open
   */
  public IstioEndpointsBuilder endpoint(String workload, String ip, int port, long weight, HealthStatus health) {
    String identity = String.join(";", workload, namespace, canonicalService, canonicalRevision, clusterId);
    current().addLbEndpoints(LbEndpoint.newBuilder()
        .setHealthStatus(health)
        .setLoadBalancingWeight(UInt32Value.of((int) weight))
        .setMetadata(Metadata.newBuilder()
            .putFilterMetadata(ISTIO_METADATA_KEY, struct("workload", identity))
            .putFilterMetadata(TRANSPORT_SOCKET_MATCH_KEY, struct("tlsMode", "istio")))
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
            SocketAddress.newBuilder().setAddress(ip).setPortValue(port)))));
    return this;
  }

  /**
   * The assignment, each locality weighted by the sum of its endpoints' weights (capped at
   * 2^32-1).
   *
   * @return the built ClusterLoadAssignment
   */
  public ClusterLoadAssignment build() {
    ClusterLoadAssignment.Builder out = assignment.clone().clearEndpoints();
    for (LocalityLbEndpoints.Builder locality : localities) {
      long sum = 0;
      for (LbEndpoint endpoint : locality.getLbEndpointsList()) {
        sum += Integer.toUnsignedLong(endpoint.getLoadBalancingWeight().getValue());
      }
      out.addEndpoints(locality.clone().setLoadBalancingWeight(UInt32Value.of((int) Math.min(sum, 0xFFFF_FFFFL))));
    }
    return out.build();
  }

  /**
   * The assignment packed in an {@code Any}, as a DiscoveryResponse carries it.
   *
   * @return the packed ClusterLoadAssignment
   */
  public Any buildAny() {
    return Any.pack(build());
  }

  private LocalityLbEndpoints.Builder current() {
    if (localities.isEmpty()) {
      throw new IllegalStateException("call locality(...) before adding endpoints or a priority");
    }
    return localities.get(localities.size() - 1);
  }

  private static Struct struct(String key, String value) {
    return Struct.newBuilder().putFields(key, Value.newBuilder().setStringValue(value).build()).build();
  }
}
