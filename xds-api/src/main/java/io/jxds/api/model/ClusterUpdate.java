package io.jxds.api.model;

import java.util.Objects;
import java.util.Optional;

/**
 * A validated Cluster (CDS resource) of discovery type EDS or LOGICAL_DNS, or an aggregate cluster
 * (gRFC A37).
 *
 * @param clusterName the cluster's {@code name}
 * @param edsServiceName the name to watch endpoints under: {@code eds_cluster_config.service_name},
 *     or the cluster name when that is empty; a LOGICAL_DNS cluster's is its name (it keys the
 *     circuit breaker and load reports, nothing is watched under it)
 * @param lrsEnabled whether {@code lrs_server} asks for load reports to the same control plane
 * @param maxConcurrentRequests the circuit breaker's {@code max_requests} for priority DEFAULT, an
 *     unsigned 32-bit value (default {@value #DEFAULT_MAX_CONCURRENT_REQUESTS})
 * @param lbPolicy the endpoint-picking policy
 * @param upstreamTls present when the cluster's {@code transport_socket} asks for TLS
 * @param outlierDetection present when the cluster sets {@code outlier_detection} (gRFC A50)
 * @param logicalDns present when the cluster is of type LOGICAL_DNS: the name whose addresses are
 *     its one endpoint (then nothing is watched under {@code edsServiceName})
 * @param aggregate present when the cluster is an aggregate cluster (gRFC A37): its underlying
 *     clusters in priority order. Then only {@code clusterName} means anything: the aggregate's own
 *     LB policy, circuit breaker, TLS, load reporting and outlier detection are not used, each
 *     underlying cluster brings its own (gRFC A75); the other components hold their defaults
 */
public record ClusterUpdate(
    String clusterName,
    String edsServiceName,
    boolean lrsEnabled,
    long maxConcurrentRequests,
    LbPolicy lbPolicy,
    Optional<UpstreamTlsSettings> upstreamTls,
    Optional<OutlierDetection> outlierDetection,
    Optional<LogicalDns> logicalDns,
    Optional<AggregateCluster> aggregate) {
  /** gRFC A32's default when a cluster sets no circuit breaker. */
  public static final long DEFAULT_MAX_CONCURRENT_REQUESTS = 1024;

  /**
   * Creates a cluster, checking its components.
   *
   * @param clusterName the cluster's name, not empty
   * @param edsServiceName the name to watch endpoints under, not empty
   * @param lrsEnabled whether to report load to the control plane
   * @param maxConcurrentRequests in [0, 2^32-1]
   * @param lbPolicy the endpoint-picking policy
   * @param upstreamTls the TLS settings, empty for plaintext
   * @param outlierDetection the outlier detection settings, empty when the cluster has none
   * @param logicalDns the DNS name of a LOGICAL_DNS cluster, empty for an EDS cluster
   * @param aggregate the underlying clusters of an aggregate cluster, empty for an EDS or
   *     LOGICAL_DNS cluster
   * @throws IllegalArgumentException if a name is empty, {@code maxConcurrentRequests} is out of
   *     range, or the cluster is both LOGICAL_DNS and an aggregate
   */
  public ClusterUpdate {
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(edsServiceName, "edsServiceName");
    Objects.requireNonNull(lbPolicy, "lbPolicy");
    Objects.requireNonNull(upstreamTls, "upstreamTls");
    Objects.requireNonNull(outlierDetection, "outlierDetection");
    Objects.requireNonNull(logicalDns, "logicalDns");
    Objects.requireNonNull(aggregate, "aggregate");
    if (logicalDns.isPresent() && aggregate.isPresent()) {
      throw new IllegalArgumentException("a cluster cannot be both LOGICAL_DNS and an aggregate");
    }
    if (clusterName.isEmpty()) {
      throw new IllegalArgumentException("clusterName must not be empty");
    }
    if (edsServiceName.isEmpty()) {
      throw new IllegalArgumentException("edsServiceName must not be empty");
    }
    if (maxConcurrentRequests < 0 || maxConcurrentRequests > Weights.MAX_UINT32) {
      throw new IllegalArgumentException(
          "maxConcurrentRequests must be in [0, 2^32-1], got " + maxConcurrentRequests);
    }
  }

  /**
   * An EDS or LOGICAL_DNS cluster.
   *
   * @param clusterName the cluster's name, not empty
   * @param edsServiceName the name to watch endpoints under, not empty
   * @param lrsEnabled whether to report load to the control plane
   * @param maxConcurrentRequests in [0, 2^32-1]
   * @param lbPolicy the endpoint-picking policy
   * @param upstreamTls the TLS settings, empty for plaintext
   * @param outlierDetection the outlier detection settings, empty when the cluster has none
   * @param logicalDns the DNS name of a LOGICAL_DNS cluster, empty for an EDS cluster
   * @throws IllegalArgumentException if a name is empty or {@code maxConcurrentRequests} is out of
   *     range
   */
  public ClusterUpdate(
      String clusterName,
      String edsServiceName,
      boolean lrsEnabled,
      long maxConcurrentRequests,
      LbPolicy lbPolicy,
      Optional<UpstreamTlsSettings> upstreamTls,
      Optional<OutlierDetection> outlierDetection,
      Optional<LogicalDns> logicalDns) {
    this(clusterName, edsServiceName, lrsEnabled, maxConcurrentRequests, lbPolicy, upstreamTls, outlierDetection,
        logicalDns, Optional.empty());
  }

  /**
   * An EDS cluster without outlier detection.
   *
   * @param clusterName the cluster's name, not empty
   * @param edsServiceName the name to watch endpoints under, not empty
   * @param lrsEnabled whether to report load to the control plane
   * @param maxConcurrentRequests in [0, 2^32-1]
   * @param lbPolicy the endpoint-picking policy
   * @param upstreamTls the TLS settings, empty for plaintext
   * @throws IllegalArgumentException if a name is empty or {@code maxConcurrentRequests} is out of
   *     range
   */
  public ClusterUpdate(
      String clusterName,
      String edsServiceName,
      boolean lrsEnabled,
      long maxConcurrentRequests,
      LbPolicy lbPolicy,
      Optional<UpstreamTlsSettings> upstreamTls) {
    this(clusterName, edsServiceName, lrsEnabled, maxConcurrentRequests, lbPolicy, upstreamTls, Optional.empty());
  }

  /**
   * An EDS cluster.
   *
   * @param clusterName the cluster's name, not empty
   * @param edsServiceName the name to watch endpoints under, not empty
   * @param lrsEnabled whether to report load to the control plane
   * @param maxConcurrentRequests in [0, 2^32-1]
   * @param lbPolicy the endpoint-picking policy
   * @param upstreamTls the TLS settings, empty for plaintext
   * @param outlierDetection the outlier detection settings, empty when the cluster has none
   * @throws IllegalArgumentException if a name is empty or {@code maxConcurrentRequests} is out of
   *     range
   */
  public ClusterUpdate(
      String clusterName,
      String edsServiceName,
      boolean lrsEnabled,
      long maxConcurrentRequests,
      LbPolicy lbPolicy,
      Optional<UpstreamTlsSettings> upstreamTls,
      Optional<OutlierDetection> outlierDetection) {
    this(clusterName, edsServiceName, lrsEnabled, maxConcurrentRequests, lbPolicy, upstreamTls, outlierDetection,
        Optional.empty());
  }

  /**
   * A plaintext round-robin cluster whose endpoints are watched under {@code edsServiceName}.
   *
   * @param clusterName the cluster's name, not empty
   * @param edsServiceName the name to watch endpoints under, not empty
   * @return the cluster, without load reporting and with the default circuit breaker
   */
  public static ClusterUpdate of(String clusterName, String edsServiceName) {
    return new ClusterUpdate(
        clusterName,
        edsServiceName,
        false,
        DEFAULT_MAX_CONCURRENT_REQUESTS,
        LbPolicy.ROUND_ROBIN,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /**
   * An aggregate cluster (gRFC A37): only its name and its underlying clusters mean anything.
   *
   * @param clusterName the aggregate's name, not empty
   * @param aggregate its underlying clusters in priority order
   * @return the cluster, its other components at their defaults
   */
  public static ClusterUpdate aggregate(String clusterName, AggregateCluster aggregate) {
    return new ClusterUpdate(
        clusterName,
        clusterName,
        false,
        DEFAULT_MAX_CONCURRENT_REQUESTS,
        LbPolicy.ROUND_ROBIN,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(aggregate));
  }
}
