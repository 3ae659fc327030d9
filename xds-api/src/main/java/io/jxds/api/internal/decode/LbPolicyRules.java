package io.jxds.api.internal.decode;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.RuntimeDouble;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.maglev.v3.Maglev;
import io.envoyproxy.envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.LbPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * A Cluster's endpoint-picking policy, in either form:
 *
 * <ul>
 *   <li>gRFC A52: {@code load_balancing_policy}, when set, overrides {@code lb_policy}; its
 *       policies are tried in order and the first one jxds supports wins: {@code round_robin},
 *       {@code least_request} (alone or in {@code wrr_locality}: jxds always weights localities,
 *       so both mean the same), {@code ring_hash} and {@code maglev} (per priority, never inside
 *       {@code wrr_locality}). A supported policy whose settings are out of range is a NACK, not
 *       skipped.
 *   <li>The legacy {@code lb_policy}: ROUND_ROBIN, LEAST_REQUEST ({@code least_request_lb_config}),
 *       RING_HASH ({@code ring_hash_lb_config}) or MAGLEV ({@code maglev_lb_config}).
 * </ul>
 *
 * <p>Settings (the same rules in both forms): least request {@code choice_count} in [2, 10]
 * (default 2, gRFC A48) and {@code active_request_bias} finite and {@code >= 0} (default 1.0);
 * ring hash {@code hash_function} XX_HASH (or its default), ring sizes in [1, 8M] with minimum
 * {@code <=} maximum (defaults 1024 and 8M, gRFC A42); maglev {@code table_size} a prime of at
 * most 5 000 011 (default 65 537, envoy's limits). Slow start, {@code hash_balance_factor} and
 * {@code use_hostname_for_hashing} are not supported and are ignored, as gRPC ignores them.
 */
final class LbPolicyRules {
  private static final String POLICIES = "envoy.extensions.load_balancing_policies.";
  static final String ROUND_ROBIN_TYPE = POLICIES + "round_robin.v3.RoundRobin";
  static final String WRR_LOCALITY_TYPE = POLICIES + "wrr_locality.v3.WrrLocality";
  static final String LEAST_REQUEST_TYPE = POLICIES + "least_request.v3.LeastRequest";
  static final String RING_HASH_TYPE = POLICIES + "ring_hash.v3.RingHash";
  static final String MAGLEV_TYPE = POLICIES + "maglev.v3.Maglev";

  private static final String SUPPORTED =
      "round_robin, least_request, ring_hash, maglev or wrr_locality{round_robin or least_request}";

  private LbPolicyRules() {}

  static LbPolicy lbPolicy(Cluster cluster, String name) throws XdsResourceException {
    if (cluster.hasLoadBalancingPolicy()) {
      List<String> seen = new ArrayList<>();
      LbPolicy policy = firstSupported(cluster.getLoadBalancingPolicy(), true, seen, name, "load_balancing_policy ");
      if (policy == null) {
        throw Nack.of(
            ClusterDecoder.KIND,
            name,
            "load_balancing_policy must hold " + SUPPORTED,
            seen.isEmpty() ? "no policies" : String.join(", ", seen));
      }
      return policy;
    }
    return legacy(cluster, name);
  }

  private static LbPolicy legacy(Cluster cluster, String name) throws XdsResourceException {
    switch (cluster.getLbPolicyValue()) {
      case Cluster.LbPolicy.ROUND_ROBIN_VALUE:
        return LbPolicy.ROUND_ROBIN;
      case Cluster.LbPolicy.LEAST_REQUEST_VALUE: {
        Cluster.LeastRequestLbConfig c = cluster.getLeastRequestLbConfig();
        return leastRequest(name, "least_request_lb_config.", c.hasChoiceCount() ? c.getChoiceCount() : null,
            c.hasActiveRequestBias() ? c.getActiveRequestBias() : null);
      }
      case Cluster.LbPolicy.RING_HASH_VALUE: {
        Cluster.RingHashLbConfig c = cluster.getRingHashLbConfig();
        if (c.getHashFunction() != Cluster.RingHashLbConfig.HashFunction.XX_HASH) {
          throw Nack.of(ClusterDecoder.KIND, name, "ring_hash_lb_config.hash_function must be XX_HASH",
              ClusterDecoder.enumName(c.getHashFunction(), c.getHashFunctionValue()));
        }
        return ringHash(name, "ring_hash_lb_config.", c.hasMinimumRingSize() ? c.getMinimumRingSize() : null,
            c.hasMaximumRingSize() ? c.getMaximumRingSize() : null);
      }
      case Cluster.LbPolicy.MAGLEV_VALUE: {
        Cluster.MaglevLbConfig c = cluster.getMaglevLbConfig();
        return maglev(name, "maglev_lb_config.", c.hasTableSize() ? c.getTableSize() : null);
      }
      default:
        throw Nack.of(
            ClusterDecoder.KIND,
            name,
            "lb_policy must be ROUND_ROBIN, LEAST_REQUEST, RING_HASH or MAGLEV",
            ClusterDecoder.enumName(cluster.getLbPolicy(), cluster.getLbPolicyValue()));
    }
  }

  /**
   * The first supported policy in {@code list}, or null; {@code seen} collects what was refused.
   * {@code top} is false inside {@code wrr_locality}, where only per-locality policies fit.
   */
  private static LbPolicy firstSupported(
      LoadBalancingPolicy list, boolean top, List<String> seen, String name, String field)
      throws XdsResourceException {
    for (LoadBalancingPolicy.Policy p : list.getPoliciesList()) {
      Any config = p.getTypedExtensionConfig().getTypedConfig();
      String typeUrl = config.getTypeUrl();
      String type = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
      if (type.equals(ROUND_ROBIN_TYPE)) {
        return LbPolicy.ROUND_ROBIN;
      }
      if (type.equals(LEAST_REQUEST_TYPE)) {
        String at = field + "least_request";
        LeastRequest lr = parse(config, LeastRequest.parser(), name, at);
        return leastRequest(name, at + ".", lr.hasChoiceCount() ? lr.getChoiceCount() : null,
            lr.hasActiveRequestBias() ? lr.getActiveRequestBias() : null);
      }
      if (top && type.equals(RING_HASH_TYPE)) {
        String at = field + "ring_hash";
        RingHash rh = parse(config, RingHash.parser(), name, at);
        if (rh.getHashFunction() != RingHash.HashFunction.XX_HASH
            && rh.getHashFunction() != RingHash.HashFunction.DEFAULT_HASH) {
          throw Nack.of(ClusterDecoder.KIND, name, at + ".hash_function must be XX_HASH",
              ClusterDecoder.enumName(rh.getHashFunction(), rh.getHashFunctionValue()));
        }
        return ringHash(name, at + ".", rh.hasMinimumRingSize() ? rh.getMinimumRingSize() : null,
            rh.hasMaximumRingSize() ? rh.getMaximumRingSize() : null);
      }
      if (top && type.equals(MAGLEV_TYPE)) {
        String at = field + "maglev";
        Maglev m = parse(config, Maglev.parser(), name, at);
        return maglev(name, at + ".", m.hasTableSize() ? m.getTableSize() : null);
      }
      if (top && type.equals(WRR_LOCALITY_TYPE)) {
        List<String> inner = new ArrayList<>();
        try {
          WrrLocality wrr = WrrLocality.parseFrom(config.getValue());
          LbPolicy child = firstSupported(wrr.getEndpointPickingPolicy(), false, inner, name, field + "wrr_locality.");
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

  private static <T> T parse(Any config, com.google.protobuf.Parser<T> parser, String name, String at)
      throws XdsResourceException {
    try {
      return parser.parseFrom(config.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw Nack.of(ClusterDecoder.KIND, name, at + " must parse", "bytes that do not parse: " + e.getMessage());
    }
  }

  /** gRFC A48: {@code choice_count} in [2, 10]; envoy: {@code active_request_bias} {@code >= 0}. */
  private static LbPolicy leastRequest(String name, String at, UInt32Value choiceCount, RuntimeDouble bias)
      throws XdsResourceException {
    long choices = choiceCount == null
        ? LbPolicy.LeastRequest.DEFAULT_CHOICE_COUNT
        : Integer.toUnsignedLong(choiceCount.getValue());
    if (choices < LbPolicy.LeastRequest.MIN_CHOICE_COUNT || choices > LbPolicy.LeastRequest.MAX_CHOICE_COUNT) {
      throw Nack.of(ClusterDecoder.KIND, name, at + "choice_count must be in ["
          + LbPolicy.LeastRequest.MIN_CHOICE_COUNT + ", " + LbPolicy.LeastRequest.MAX_CHOICE_COUNT + "]", choices);
    }
    double activeRequestBias =
        bias == null ? LbPolicy.LeastRequest.DEFAULT_ACTIVE_REQUEST_BIAS : bias.getDefaultValue();
    if (!(activeRequestBias >= 0) || Double.isInfinite(activeRequestBias)) {
      throw Nack.of(ClusterDecoder.KIND, name, at + "active_request_bias.default_value must be finite and >= 0",
          activeRequestBias);
    }
    return new LbPolicy.LeastRequest((int) choices, activeRequestBias);
  }

  /** gRFC A42: ring sizes in [1, 8M], minimum at most maximum. */
  private static LbPolicy ringHash(String name, String at, UInt64Value min, UInt64Value max)
      throws XdsResourceException {
    long minSize = min == null ? LbPolicy.RingHash.DEFAULT_MIN_RING_SIZE : min.getValue();
    long maxSize = max == null ? LbPolicy.RingHash.MAX_RING_SIZE : max.getValue();
    String range = " must be in [1, " + LbPolicy.RingHash.MAX_RING_SIZE + "]";
    if (Long.compareUnsigned(minSize, 1) < 0 || Long.compareUnsigned(minSize, LbPolicy.RingHash.MAX_RING_SIZE) > 0) {
      throw Nack.of(ClusterDecoder.KIND, name, at + "minimum_ring_size" + range, Long.toUnsignedString(minSize));
    }
    if (Long.compareUnsigned(maxSize, 1) < 0 || Long.compareUnsigned(maxSize, LbPolicy.RingHash.MAX_RING_SIZE) > 0) {
      throw Nack.of(ClusterDecoder.KIND, name, at + "maximum_ring_size" + range, Long.toUnsignedString(maxSize));
    }
    if (minSize > maxSize) {
      throw Nack.of(ClusterDecoder.KIND, name,
          at + "minimum_ring_size must be at most maximum_ring_size " + maxSize, minSize);
    }
    return new LbPolicy.RingHash(minSize, maxSize);
  }

  /** envoy: {@code table_size} a prime, at most 5 000 011. */
  private static LbPolicy maglev(String name, String at, UInt64Value tableSize) throws XdsResourceException {
    long size = tableSize == null ? LbPolicy.Maglev.DEFAULT_TABLE_SIZE : tableSize.getValue();
    if (Long.compareUnsigned(size, LbPolicy.Maglev.MAX_TABLE_SIZE) > 0 || !LbPolicy.Maglev.isPrime(size)) {
      throw Nack.of(ClusterDecoder.KIND, name,
          at + "table_size must be a prime of at most " + LbPolicy.Maglev.MAX_TABLE_SIZE, Long.toUnsignedString(size));
    }
    return new LbPolicy.Maglev(size);
  }
}
