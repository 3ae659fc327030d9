package io.jxds.testing;

import com.google.protobuf.Any;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;

/**
 * Builds a Cluster as istiod's proxyless gRPC generator does (see {@link IstioResources}): type
 * EDS, {@code eds_cluster_config} with {@code service_name} equal to the cluster name and {@code
 * eds_config} ADS, {@code lb_policy} left unset (ROUND_ROBIN: without a DestinationRule istiod sets
 * none for proxyless clients, unlike the LEAST_REQUEST it gives sidecars), no circuit breaker,
 * plaintext. The methods apply a DestinationRule's traffic policy.
 */
public final class IstioClusterBuilder {
  private final Cluster.Builder cluster;

  IstioClusterBuilder(String name) {
    cluster = Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder()
            .setServiceName(name)
            .setEdsConfig(XdsResources.adsConfigSource()));
  }

  /**
   * {@code loadBalancer.simple: ROUND_ROBIN} (what no DestinationRule also gives): {@code
   * lb_policy} ROUND_ROBIN, no LB config.
   *
   * @return this builder
   */
  public IstioClusterBuilder roundRobin() {
    cluster.setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN).clearLbConfig();
    return this;
  }

  /**
   * {@code loadBalancer.simple: LEAST_REQUEST}: {@code lb_policy} LEAST_REQUEST, no {@code
   * least_request_lb_config} (choice count 2).
   *
   * @return this builder
   */
  public IstioClusterBuilder leastRequest() {
    cluster.setLbPolicy(Cluster.LbPolicy.LEAST_REQUEST).clearLbConfig();
    return this;
  }

  /**
   * {@code loadBalancer.consistentHash} without a ring size: {@code lb_policy} RING_HASH and {@code
   * ring_hash_lb_config.minimum_ring_size} {@value IstioResources#DEFAULT_MINIMUM_RING_SIZE}.
   *
   * @return this builder
   */
  public IstioClusterBuilder consistentHash() {
    return consistentHash(IstioResources.DEFAULT_MINIMUM_RING_SIZE);
  }

  /**
   * {@code loadBalancer.consistentHash} with {@code ringHash.minimumRingSize}: {@code lb_policy}
   * RING_HASH and {@code ring_hash_lb_config.minimum_ring_size} (no maximum, hash function left at
   * its default, XX_HASH).
   *
   * @param minimumRingSize the ring size
   * @return this builder
   */
  public IstioClusterBuilder consistentHash(long minimumRingSize) {
    cluster.setLbPolicy(Cluster.LbPolicy.RING_HASH)
        .setRingHashLbConfig(Cluster.RingHashLbConfig.newBuilder().setMinimumRingSize(UInt64Value.of(minimumRingSize)));
    return this;
  }

  /**
   * {@code loadBalancer.consistentHash.maglev} without a table size: {@code lb_policy} MAGLEV, no
   * {@code maglev_lb_config} (table size 65537).
   *
   * @return this builder
   */
  public IstioClusterBuilder maglev() {
    cluster.setLbPolicy(Cluster.LbPolicy.MAGLEV).clearLbConfig();
    return this;
  }

  /**
   * {@code loadBalancer.consistentHash.maglev.tableSize}: {@code lb_policy} MAGLEV and {@code
   * maglev_lb_config.table_size}.
   *
   * @param tableSize the lookup table size (Envoy requires a prime)
   * @return this builder
   */
  public IstioClusterBuilder maglev(long tableSize) {
    cluster.setLbPolicy(Cluster.LbPolicy.MAGLEV)
        .setMaglevLbConfig(Cluster.MaglevLbConfig.newBuilder().setTableSize(UInt64Value.of(tableSize)));
    return this;
  }

  /**
   * {@code connectionPool.http.http2MaxRequests}: one circuit-breaker threshold (priority DEFAULT)
   * holding {@code max_requests} and nothing else.
   *
   * @param maxRequests the limit of concurrent requests, unsigned
   * @return this builder
   */
  public IstioClusterBuilder http2MaxRequests(long maxRequests) {
    cluster.setCircuitBreakers(CircuitBreakers.newBuilder()
        .addThresholds(CircuitBreakers.Thresholds.newBuilder().setMaxRequests(UInt32Value.of((int) maxRequests))));
    return this;
  }

  /**
   * The proto under construction, for fields the methods above do not cover.
   *
   * @return the mutable builder this builds from
   */
  public Cluster.Builder proto() {
    return cluster;
  }

  /**
   * The Cluster.
   *
   * @return the built Cluster
   */
  public Cluster build() {
    return cluster.build();
  }

  /**
   * The Cluster packed in an {@code Any}, as a DiscoveryResponse carries it.
   *
   * @return the packed Cluster
   */
  public Any buildAny() {
    return Any.pack(build());
  }
}
