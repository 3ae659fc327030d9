package io.jxds.toolkit.internal.plan;

import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.toolkit.Fraction;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Ring hash and maglev shares: the share of uniformly random request hashes each endpoint's slots
 * take in the ring or table the hash balancer builds for the priority
 * ({@link HashBalancer#hashesPerEndpoint}, gRFC A42's weights and keys).
 */
final class HashShares {
  private static final BigInteger HASHES = BigInteger.ONE.shiftLeft(64);

  private HashShares() {}

  static Map<InetSocketAddress, Fraction> of(LocalityGroup group) {
    Map<InetSocketAddress, Fraction> shares = new HashMap<>();
    HashBalancer.hashesPerEndpoint(group).forEach((address, count) -> shares.put(address, new Fraction(count, HASHES)));
    return shares;
  }
}
