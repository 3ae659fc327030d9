package io.jxds.api.internal.decode;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.LbPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * A Cluster's endpoint-picking policy. gRFC A52: {@code load_balancing_policy}, when set,
 * overrides {@code lb_policy}; its policies are tried in order and the first one jxds supports
 * wins. jxds supports {@code round_robin}, alone or wrapped in {@code wrr_locality} (jxds always
 * weights localities, so both mean the same). The legacy {@code lb_policy} must be ROUND_ROBIN
 * (its default).
 */
final class LbPolicyRules {
  static final String ROUND_ROBIN_TYPE =
      "envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin";
  static final String WRR_LOCALITY_TYPE =
      "envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality";

  private LbPolicyRules() {}

  static LbPolicy lbPolicy(Cluster cluster, String name) throws XdsResourceException {
    if (cluster.hasLoadBalancingPolicy()) {
      List<String> seen = new ArrayList<>();
      LbPolicy policy = firstSupported(cluster.getLoadBalancingPolicy(), true, seen);
      if (policy == null) {
        throw Nack.of(
            ClusterDecoder.KIND,
            name,
            "load_balancing_policy must hold round_robin or wrr_locality{round_robin}",
            seen.isEmpty() ? "no policies" : String.join(", ", seen));
      }
      return policy;
    }
    if (cluster.getLbPolicyValue() != Cluster.LbPolicy.ROUND_ROBIN_VALUE) {
      throw Nack.of(
          ClusterDecoder.KIND,
          name,
          "lb_policy must be ROUND_ROBIN",
          ClusterDecoder.enumName(cluster.getLbPolicy(), cluster.getLbPolicyValue()));
    }
    return LbPolicy.ROUND_ROBIN;
  }

  /** The first supported policy in {@code list}, or null; {@code seen} collects what was refused. */
  private static LbPolicy firstSupported(LoadBalancingPolicy list, boolean allowWrapper, List<String> seen) {
    for (LoadBalancingPolicy.Policy p : list.getPoliciesList()) {
      String typeUrl = p.getTypedExtensionConfig().getTypedConfig().getTypeUrl();
      String type = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
      if (type.equals(ROUND_ROBIN_TYPE)) {
        return LbPolicy.ROUND_ROBIN;
      }
      if (allowWrapper && type.equals(WRR_LOCALITY_TYPE)) {
        List<String> inner = new ArrayList<>();
        try {
          WrrLocality wrr = WrrLocality.parseFrom(p.getTypedExtensionConfig().getTypedConfig().getValue());
          LbPolicy child = firstSupported(wrr.getEndpointPickingPolicy(), false, inner);
          if (child != null) {
            return child;
          }
        } catch (InvalidProtocolBufferException e) {
          inner.add("bytes that do not parse");
        }
        seen.add("wrr_locality{" + String.join(", ", inner) + "}");
        continue;
      }
      seen.add(typeUrl.isEmpty() ? "an empty type_url" : typeUrl);
    }
    return null;
  }
}
