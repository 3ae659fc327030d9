package io.jxds.api.decode;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.jxds.api.model.ClusterUpdate;

/** Validates an envoy v3 {@code Cluster} into a {@link ClusterUpdate}. */
public final class ClusterDecoder {
  private ClusterDecoder() {}

  /** Validates {@code cluster}; every rule broken names the cluster, the field and the value. */
  public static ClusterUpdate decode(Cluster cluster) throws XdsResourceException {
    throw new XdsResourceException(cluster.getName(), "cluster decoding is not implemented yet");
  }
}
