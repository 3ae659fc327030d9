package io.jxds.api.internal.decode;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.extensions.clusters.aggregate.v3.ClusterConfig;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.AggregateCluster;
import io.jxds.api.model.ClusterUpdate;

/**
 * Validates an aggregate cluster (gRFC A37): {@code cluster_type} {@value #TYPE_NAME} whose
 * {@code typed_config} is an {@code envoy.extensions.clusters.aggregate.v3.ClusterConfig}.
 *
 * <ul>
 *   <li>{@code clusters} not empty, no entry empty, none naming the aggregate itself (a loop
 *       whatever the other resources say); a repeated entry is kept, the channel counts its first
 *       position;
 *   <li>nothing else of the aggregate is read: gRFC A75 uses each underlying cluster's own LB
 *       policy, circuit breaker, TLS, load reporting and outlier detection, and ignores the
 *       aggregate's {@code lb_policy} (Envoy requires {@code CLUSTER_PROVIDED} there, which
 *       grpc-java NACKs).
 * </ul>
 *
 * <p>Longer loops and the depth limit involve other clusters: the channel resolving the tree fails
 * with UNAVAILABLE naming them, and no resource is NACKed.
 */
final class AggregateClusterDecoder {
  static final String TYPE_NAME = "envoy.clusters.aggregate";
  static final String CONFIG_TYPE_URL = "type.googleapis.com/" + ClusterConfig.getDescriptor().getFullName();
  private static final String FIELD = "cluster_type.typed_config";
  private static final String CLUSTERS = FIELD + " (aggregate ClusterConfig).clusters";

  private AggregateClusterDecoder() {}

  /** Whether {@code cluster_type} names the aggregate extension. */
  static boolean isAggregate(Cluster cluster) {
    return cluster.getClusterDiscoveryTypeCase() == Cluster.ClusterDiscoveryTypeCase.CLUSTER_TYPE
        && TYPE_NAME.equals(cluster.getClusterType().getName());
  }

  static ClusterUpdate decode(Cluster cluster, String name) throws XdsResourceException {
    Any typed = cluster.getClusterType().getTypedConfig();
    if (!CONFIG_TYPE_URL.equals(typed.getTypeUrl())) {
      throw Nack.of(ClusterDecoder.KIND, name, FIELD + " must be " + CONFIG_TYPE_URL,
          typed.getTypeUrl().isEmpty() ? "unset" : typed.getTypeUrl());
    }
    ClusterConfig config;
    try {
      config = typed.unpack(ClusterConfig.class);
    } catch (InvalidProtocolBufferException e) {
      throw Nack.of(ClusterDecoder.KIND, name, FIELD + " must be a valid aggregate ClusterConfig", e.getMessage());
    }
    if (config.getClustersCount() == 0) {
      throw Nack.of(ClusterDecoder.KIND, name, CLUSTERS + " must not be empty", "[]");
    }
    for (int i = 0; i < config.getClustersCount(); i++) {
      String underlying = config.getClusters(i);
      if (underlying.isEmpty()) {
        throw Nack.of(ClusterDecoder.KIND, name, CLUSTERS + "[" + i + "] must not be empty", "\"\"");
      }
      if (underlying.equals(name)) {
        throw Nack.of(ClusterDecoder.KIND, name, CLUSTERS + "[" + i + "] must not name the aggregate itself",
            Nack.quote(underlying));
      }
    }
    return ClusterUpdate.aggregate(name, new AggregateCluster(config.getClustersList()));
  }
}
