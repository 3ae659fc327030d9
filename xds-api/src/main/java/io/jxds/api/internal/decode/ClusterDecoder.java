package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LogicalDns;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.Optional;
import java.util.Set;

/**
 * Validates an envoy v3 {@code Cluster} into a {@link ClusterUpdate}.
 *
 * <p>Rules (a broken rule is a NACK naming the cluster, the field and the value):
 *
 * <ul>
 *   <li>{@code name} non-empty; {@code type} EDS or LOGICAL_DNS, or {@code cluster_type}
 *       {@code envoy.clusters.aggregate} (jxds supports no other discovery type);
 *   <li>an aggregate (gRFC A37, A75): its {@code clusters} and nothing else (see
 *       {@link AggregateClusterDecoder});
 *   <li>EDS: {@code eds_cluster_config.eds_config} is {@code ads} or {@code self};
 *       {@code service_name} defaults to the cluster name;
 *   <li>LOGICAL_DNS (gRFC A37): one locality with one endpoint, its {@code host:port} (see
 *       {@link LogicalDnsDecoder}); {@code eds_cluster_config} is not read;
 *   <li>{@code load_balancing_policy} (gRFC A52), when set, overrides {@code lb_policy}: see
 *       {@link LbPolicyRules};
 *   <li>{@code transport_socket_matches} empty; {@code transport_socket} absent or TLS with an
 *       {@code UpstreamTlsContext} (see {@link UpstreamTlsDecoder});
 *   <li>{@code lrs_server}, when set, is {@code self} and turns load reporting on;
 *   <li>circuit breakers (gRFC A32): the first threshold of priority DEFAULT gives
 *       {@code max_requests}, read as unsigned; otherwise 1024;
 *   <li>{@code outlier_detection} (gRFC A50): see {@link OutlierDetectionDecoder}.
 * </ul>
 */
public final class ClusterDecoder {
  static final String KIND = "cluster";
  private static final String TYPES =
      "type must be EDS or LOGICAL_DNS, or cluster_type " + AggregateClusterDecoder.TYPE_NAME;

  private ClusterDecoder() {}

  /**
   * Validates {@code cluster}; every rule broken names the cluster, the field and the value.
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static ClusterUpdate decode(Cluster cluster) throws XdsResourceException {
    return decode(cluster, Optional.empty());
  }

  /**
   * Validates {@code cluster} knowing the bootstrap: a certificate-provider instance its TLS context
   * names must be one of {@code certificateProviderInstances} (gRFC A29).
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static ClusterUpdate decode(Cluster cluster, Set<String> certificateProviderInstances)
      throws XdsResourceException {
    return decode(cluster, Optional.of(Set.copyOf(certificateProviderInstances)));
  }

  private static ClusterUpdate decode(Cluster cluster, Optional<Set<String>> knownInstances)
      throws XdsResourceException {
    String name = "";
    try {
      name = cluster.getName();
      return decodeChecked(cluster, name, knownInstances);
    } catch (RuntimeException e) {
      throw Nack.unexpected(KIND, name, e);
    }
  }

  private static ClusterUpdate decodeChecked(Cluster cluster, String name, Optional<Set<String>> knownInstances)
      throws XdsResourceException {
    if (name.isEmpty()) {
      throw Nack.of(KIND, name, "name must not be empty", "\"\"");
    }
    if (AggregateClusterDecoder.isAggregate(cluster)) {
      return AggregateClusterDecoder.decode(cluster, name);
    }
    boolean dns = isLogicalDns(cluster, name);
    Optional<LogicalDns> logicalDns = dns ? Optional.of(LogicalDnsDecoder.decode(cluster, name)) : Optional.empty();
    // A LOGICAL_DNS cluster watches nothing: its name keys the circuit breaker and load reports.
    String edsServiceName = dns ? name : edsServiceName(cluster, name);
    LbPolicy lbPolicy = LbPolicyRules.lbPolicy(cluster, name);
    boolean lrsEnabled = lrsEnabled(cluster, name);
    long maxRequests = maxConcurrentRequests(cluster);
    if (cluster.getTransportSocketMatchesCount() > 0) {
      throw Nack.of(
          KIND,
          name,
          "transport_socket_matches must be empty",
          cluster.getTransportSocketMatchesCount() + " entries");
    }
    Optional<UpstreamTlsSettings> tls = UpstreamTlsDecoder.decode(cluster, name, knownInstances);
    Optional<OutlierDetection> outlierDetection = OutlierDetectionDecoder.decode(cluster, name);
    return new ClusterUpdate(
        name, edsServiceName, lrsEnabled, maxRequests, lbPolicy, tls, outlierDetection, logicalDns);
  }

  /** Whether the cluster is LOGICAL_DNS; false for EDS; a NACK for any other type. */
  private static boolean isLogicalDns(Cluster cluster, String name) throws XdsResourceException {
    switch (cluster.getClusterDiscoveryTypeCase()) {
      case TYPE:
        if (cluster.getTypeValue() == Cluster.DiscoveryType.LOGICAL_DNS_VALUE) {
          return true;
        }
        if (cluster.getTypeValue() != Cluster.DiscoveryType.EDS_VALUE) {
          throw Nack.of(KIND, name, TYPES, enumName(cluster.getType(), cluster.getTypeValue()));
        }
        return false;
      case CLUSTER_TYPE:
        throw Nack.of(KIND, name, TYPES, "cluster_type " + Nack.quote(cluster.getClusterType().getName()));
      default:
        // proto3: an unset type reads as STATIC, envoy's default.
        throw Nack.of(KIND, name, TYPES, "unset (STATIC)");
    }
  }

  private static String edsServiceName(Cluster cluster, String name) throws XdsResourceException {
    Cluster.EdsClusterConfig eds = cluster.getEdsClusterConfig();
    ConfigSource source = eds.getEdsConfig();
    switch (source.getConfigSourceSpecifierCase()) {
      case ADS:
      case SELF:
        break;
      default:
        throw Nack.of(
            KIND, name, "eds_cluster_config.eds_config must be ads or self", configSourceKind(source));
    }
    String serviceName = eds.getServiceName();
    // Seed behaviour (grpc-java): an empty service_name means "watch the cluster's own name".
    return serviceName.isEmpty() ? name : serviceName;
  }

  private static boolean lrsEnabled(Cluster cluster, String name) throws XdsResourceException {
    if (!cluster.hasLrsServer()) {
      return false;
    }
    ConfigSource lrs = cluster.getLrsServer();
    if (!lrs.hasSelf()) {
      throw Nack.of(KIND, name, "lrs_server must be self", configSourceKind(lrs));
    }
    return true;
  }

  /** gRFC A32: the first DEFAULT-priority threshold's max_requests, unsigned; 1024 when absent. */
  private static long maxConcurrentRequests(Cluster cluster) {
    for (CircuitBreakers.Thresholds t : cluster.getCircuitBreakers().getThresholdsList()) {
      if (t.getPriorityValue() == RoutingPriority.DEFAULT_VALUE) {
        return t.hasMaxRequests()
            ? Integer.toUnsignedLong(t.getMaxRequests().getValue())
            : ClusterUpdate.DEFAULT_MAX_CONCURRENT_REQUESTS;
      }
    }
    return ClusterUpdate.DEFAULT_MAX_CONCURRENT_REQUESTS;
  }

  static String configSourceKind(ConfigSource source) {
    switch (source.getConfigSourceSpecifierCase()) {
      case PATH:
        return "path";
      case PATH_CONFIG_SOURCE:
        return "path_config_source";
      case API_CONFIG_SOURCE:
        return "api_config_source";
      case ADS:
        return "ads";
      case SELF:
        return "self";
      default:
        return "unset";
    }
  }

  static String enumName(Enum<?> value, int number) {
    return value.name().equals("UNRECOGNIZED") ? String.valueOf(number) : value.name();
  }
}
