package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.PathConfigSource;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.extensions.clusters.aggregate.v3.ClusterConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateProviderPluginInstance;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.List;

/**
 * Builds an envoy v3 {@code Cluster}. Starts as what a gRPC xDS client accepts: type EDS,
 * {@code eds_cluster_config.eds_config} = ADS, no service name (so the cluster name is used), no
 * LB policy set (ROUND_ROBIN), no circuit breaker, plaintext. Obtain one from
 * {@link XdsResources#cluster(String)}.
 */
public final class ClusterBuilder {
  /** The transport socket name gRPC accepts for TLS. */
  public static final String TLS_TRANSPORT_SOCKET = "envoy.transport_sockets.tls";

  private final Cluster.Builder cluster;

  ClusterBuilder(String name) {
    cluster =
        Cluster.newBuilder()
            .setName(name)
            .setType(Cluster.DiscoveryType.EDS)
            .setEdsClusterConfig(
                Cluster.EdsClusterConfig.newBuilder().setEdsConfig(XdsResources.adsConfigSource()));
  }

  /**
   * Sets {@code eds_cluster_config.service_name}.
   *
   * @param serviceName the name the cluster's endpoints are served under
   * @return this builder
   */
  public ClusterBuilder edsServiceName(String serviceName) {
    cluster.getEdsClusterConfigBuilder().setServiceName(serviceName);
    return this;
  }

  /**
   * Replaces {@code eds_cluster_config.eds_config}.
   *
   * @param source where the endpoints come from
   * @return this builder
   */
  public ClusterBuilder edsConfig(ConfigSource source) {
    cluster.getEdsClusterConfigBuilder().setEdsConfig(source);
    return this;
  }

  /**
   * Sets {@code eds_cluster_config.eds_config} to a file path source (which gRPC rejects).
   *
   * @param path the file path
   * @return this builder
   */
  public ClusterBuilder edsConfigPath(String path) {
    return edsConfig(
        ConfigSource.newBuilder()
            .setPathConfigSource(PathConfigSource.newBuilder().setPath(path))
            .build());
  }

  /**
   * Removes {@code eds_cluster_config} entirely.
   *
   * @return this builder
   */
  public ClusterBuilder noEdsClusterConfig() {
    cluster.clearEdsClusterConfig();
    return this;
  }

  /**
   * Sets the built-in discovery {@code type}.
   *
   * @param type the discovery type
   * @return this builder
   */
  public ClusterBuilder type(Cluster.DiscoveryType type) {
    cluster.setType(type);
    return this;
  }

  /**
   * Makes the cluster LOGICAL_DNS (gRFC A37): {@code type} LOGICAL_DNS, no
   * {@code eds_cluster_config}, and a {@code load_assignment} of one locality with one endpoint
   * whose {@code socket_address} is {@code host} and {@code port_value} {@code port}.
   *
   * @param host a DNS name (e.g. {@code localhost}) or an IP literal
   * @param port the port
   * @return this builder
   */
  public ClusterBuilder logicalDns(String host, int port) {
    return logicalDns(LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
            SocketAddress.newBuilder().setAddress(host).setPortValue(port))))
        .build());
  }

  /**
   * Makes the cluster LOGICAL_DNS with these {@code lb_endpoints} in its one locality: for
   * testing what a LOGICAL_DNS cluster must not hold (none, two).
   *
   * @param endpoints the locality's endpoints, as given
   * @return this builder
   */
  public ClusterBuilder logicalDns(LbEndpoint... endpoints) {
    cluster.setType(Cluster.DiscoveryType.LOGICAL_DNS)
        .clearEdsClusterConfig()
        .setLoadAssignment(ClusterLoadAssignment.newBuilder()
            .setClusterName(cluster.getName())
            .addEndpoints(LocalityLbEndpoints.newBuilder().addAllLbEndpoints(List.of(endpoints))));
    return this;
  }

  /**
   * Makes the cluster an aggregate cluster (gRFC A37): {@code cluster_type}
   * {@code envoy.clusters.aggregate} whose {@code ClusterConfig} lists {@code clusters} in priority
   * order, {@code lb_policy} {@code CLUSTER_PROVIDED} (what Envoy requires), no
   * {@code eds_cluster_config}.
   *
   * @param clusters the underlying clusters, highest priority first
   * @return this builder
   */
  public ClusterBuilder aggregate(String... clusters) {
    cluster.clearEdsClusterConfig().setLbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED);
    return customType("envoy.clusters.aggregate",
        ClusterConfig.newBuilder().addAllClusters(List.of(clusters)).build());
  }

  /**
   * Sets {@code cluster_type} to a custom type of that name (e.g. {@code envoy.clusters.aggregate}).
   *
   * @param name the custom type's name
   * @param config its {@code typed_config}
   * @return this builder
   */
  public ClusterBuilder customType(String name, Message config) {
    cluster.setClusterType(
        Cluster.CustomClusterType.newBuilder().setName(name).setTypedConfig(Any.pack(config)));
    return this;
  }

  /**
   * Adds a circuit-breaker threshold of priority DEFAULT with this {@code max_requests} (an
   * unsigned 32-bit value: values up to 2^32-1 are stored without loss).
   *
   * @param maxRequests in [0, 2^32-1]
   * @return this builder
   */
  public ClusterBuilder maxRequests(long maxRequests) {
    return maxRequests(RoutingPriority.DEFAULT, maxRequests);
  }

  /**
   * Adds a circuit-breaker threshold of the given priority with this {@code max_requests}.
   *
   * @param priority the threshold's priority
   * @param maxRequests in [0, 2^32-1]
   * @return this builder
   */
  public ClusterBuilder maxRequests(RoutingPriority priority, long maxRequests) {
    cluster
        .getCircuitBreakersBuilder()
        .addThresholds(
            CircuitBreakers.Thresholds.newBuilder()
                .setPriority(priority)
                .setMaxRequests(UInt32Value.of((int) maxRequests)));
    return this;
  }

  /**
   * Adds a circuit-breaker threshold as given (e.g. one without {@code max_requests}).
   *
   * @param threshold the threshold
   * @return this builder
   */
  public ClusterBuilder threshold(CircuitBreakers.Thresholds threshold) {
    cluster.getCircuitBreakersBuilder().addThresholds(threshold);
    return this;
  }

  /**
   * Sets {@code lrs_server} to {@code self}: report load to the same control plane.
   *
   * @return this builder
   */
  public ClusterBuilder lrsSelf() {
    return lrsServer(XdsResources.selfConfigSource());
  }

  /**
   * Sets {@code lrs_server} as given.
   *
   * @param source where to report load
   * @return this builder
   */
  public ClusterBuilder lrsServer(ConfigSource source) {
    cluster.setLrsServer(source);
    return this;
  }

  /**
   * Sets the legacy {@code lb_policy} enum.
   *
   * @param policy the policy
   * @return this builder
   */
  public ClusterBuilder lbPolicy(Cluster.LbPolicy policy) {
    cluster.setLbPolicy(policy);
    return this;
  }

  /**
   * Sets {@code load_balancing_policy} (gRFC A52) to these typed policies in order, e.g.
   * {@code loadBalancingPolicy(XdsResources.wrrLocality(XdsResources.roundRobin()))}.
   *
   * @param policies typed policies, most preferred first
   * @return this builder
   */
  public ClusterBuilder loadBalancingPolicy(Message... policies) {
    cluster.setLoadBalancingPolicy(XdsResources.loadBalancingPolicy(policies));
    return this;
  }

  /**
   * Sets {@code load_balancing_policy} as given.
   *
   * @param policy the policy
   * @return this builder
   */
  public ClusterBuilder loadBalancingPolicy(LoadBalancingPolicy policy) {
    cluster.setLoadBalancingPolicy(policy);
    return this;
  }

  /**
   * Sets {@code transport_socket} to TLS with this SNI, validating the server against the
   * certificate-provider instance {@code "default"}.
   *
   * @param sni the {@code sni} to send
   * @return this builder
   */
  public ClusterBuilder upstreamTls(String sni) {
    return upstreamTls(sni, "default");
  }

  /**
   * Sets {@code transport_socket} to TLS with this SNI and CA certificate-provider instance.
   *
   * @param sni the {@code sni} to send
   * @param caProviderInstance the CA certificate-provider instance's name
   * @return this builder
   */
  public ClusterBuilder upstreamTls(String sni, String caProviderInstance) {
    return upstreamTls(
        UpstreamTlsContext.newBuilder()
            .setSni(sni)
            .setCommonTlsContext(
                CommonTlsContext.newBuilder()
                    .setValidationContext(
                        CertificateValidationContext.newBuilder()
                            .setCaCertificateProviderInstance(
                                CertificateProviderPluginInstance.newBuilder()
                                    .setInstanceName(caProviderInstance))))
            .build());
  }

  /**
   * Sets {@code transport_socket} to mutual TLS as gRFC A29 describes it: the client certificate and
   * the roots both from certificate-provider instance {@code instance}, and the server's certificate
   * required to carry one of {@code exactSans} (none: any name, once the chain verifies).
   *
   * @param instance the bootstrap's certificate-provider instance name
   * @param exactSans the SANs the server's certificate may carry
   * @return this builder
   */
  // match_subject_alt_names is deprecated in envoy's protos for match_typed_subject_alt_names, but
  // it is the field gRFC A29 reads and istiod sends: the fixture builds what control planes send.
  @SuppressWarnings("deprecation")
  public ClusterBuilder mutualTls(String instance, String... exactSans) {
    CertificateValidationContext.Builder validation =
        CertificateValidationContext.newBuilder()
            .setCaCertificateProviderInstance(CertificateProviderPluginInstance.newBuilder().setInstanceName(instance));
    for (String san : exactSans) {
      validation.addMatchSubjectAltNames(StringMatcher.newBuilder().setExact(san));
    }
    return upstreamTls(
        UpstreamTlsContext.newBuilder()
            .setCommonTlsContext(
                CommonTlsContext.newBuilder()
                    .setTlsCertificateProviderInstance(
                        CertificateProviderPluginInstance.newBuilder().setInstanceName(instance))
                    .setValidationContext(validation))
            .build());
  }

  /**
   * Sets {@code transport_socket} to {@code envoy.transport_sockets.tls} holding {@code context}.
   *
   * @param context the TLS context
   * @return this builder
   */
  public ClusterBuilder upstreamTls(UpstreamTlsContext context) {
    return transportSocket(
        TransportSocket.newBuilder()
            .setName(TLS_TRANSPORT_SOCKET)
            .setTypedConfig(Any.pack(context))
            .build());
  }

  /**
   * Sets {@code transport_socket} as given (for invalid variants).
   *
   * @param socket the transport socket
   * @return this builder
   */
  public ClusterBuilder transportSocket(TransportSocket socket) {
    cluster.setTransportSocket(socket);
    return this;
  }

  /**
   * Adds a {@code transport_socket_matches} entry of that name (which gRPC rejects).
   *
   * @param name the entry's name
   * @return this builder
   */
  public ClusterBuilder transportSocketMatch(String name) {
    cluster.addTransportSocketMatches(
        Cluster.TransportSocketMatch.newBuilder()
            .setName(name)
            .setTransportSocket(TransportSocket.newBuilder().setName(TLS_TRANSPORT_SOCKET)));
    return this;
  }

  /**
   * Sets {@code outlier_detection} as given (gRFC A50).
   *
   * @param detection the outlier detection settings
   * @return this builder
   */
  public ClusterBuilder outlierDetection(OutlierDetection detection) {
    cluster.setOutlierDetection(detection);
    return this;
  }

  /**
   * Sets {@code outlier_detection} to the failure-percentage algorithm alone, enforced always:
   * every {@code interval}, an endpoint with at least {@code requestVolume} calls of which more
   * than {@code thresholdPercent} percent failed is ejected for {@code baseEjectionTime} (longer
   * when ejected again), while the cluster has at least {@code minimumHosts} endpoints; at most
   * {@code maxEjectionPercent} percent of them (at least one) are ejected at once.
   *
   * @param interval the time between sweeps
   * @param baseEjectionTime the first ejection's length
   * @param thresholdPercent {@code failure_percentage_threshold}
   * @param minimumHosts {@code failure_percentage_minimum_hosts}
   * @param requestVolume {@code failure_percentage_request_volume}
   * @param maxEjectionPercent {@code max_ejection_percent}
   * @return this builder
   */
  public ClusterBuilder failurePercentageEjection(
      java.time.Duration interval,
      java.time.Duration baseEjectionTime,
      int thresholdPercent,
      int minimumHosts,
      int requestVolume,
      int maxEjectionPercent) {
    return outlierDetection(OutlierDetection.newBuilder()
        .setInterval(protoDuration(interval))
        .setBaseEjectionTime(protoDuration(baseEjectionTime))
        .setMaxEjectionPercent(UInt32Value.of(maxEjectionPercent))
        .setEnforcingSuccessRate(UInt32Value.of(0))
        .setFailurePercentageThreshold(UInt32Value.of(thresholdPercent))
        .setEnforcingFailurePercentage(UInt32Value.of(100))
        .setFailurePercentageMinimumHosts(UInt32Value.of(minimumHosts))
        .setFailurePercentageRequestVolume(UInt32Value.of(requestVolume))
        .build());
  }

  private static Duration protoDuration(java.time.Duration d) {
    return Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
  }

  /**
   * The underlying proto builder, for fields this class has no setter for.
   *
   * @return the builder this one writes to; changes show in {@link #build()}
   */
  public Cluster.Builder proto() {
    return cluster;
  }

  /**
   * The {@code Cluster}.
   *
   * @return the cluster as set so far
   */
  public Cluster build() {
    return cluster.build();
  }

  /**
   * The {@code Cluster} packed in an {@code Any}, as it travels in a DiscoveryResponse.
   *
   * @return the packed cluster
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
