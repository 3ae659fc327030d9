package io.jxds.balancer.internal.tree;

import io.jxds.api.model.LbPolicy;
import java.util.Locale;
import java.util.Objects;

/**
 * How a priority's endpoints are picked: the cluster's {@link LbPolicy} (from CDS) and, for the
 * hash policies, the request header that gives the request's hash (from the {@code xds_cluster}
 * service config's {@code hashHeader}; gRFC A76's {@code request_hash_header} idea).
 *
 * @param lbPolicy the cluster's endpoint-picking policy with its settings
 * @param hashHeader the header whose value is hashed, lower case; empty for none
 */
public record EndpointPolicy(LbPolicy lbPolicy, String hashHeader) {
  /** Weighted round robin, no hash header: what a cluster gets by default. */
  public static final EndpointPolicy ROUND_ROBIN = new EndpointPolicy(LbPolicy.ROUND_ROBIN, "");

  public EndpointPolicy {
    Objects.requireNonNull(lbPolicy, "lbPolicy");
    hashHeader = hashHeader.toLowerCase(Locale.ROOT); // gRPC metadata keys are lower case
  }

  /**
   * Whether requests are hashed onto one ring or table over the whole priority (ring hash,
   * maglev) rather than spread by locality weight first (round robin, least request).
   */
  public boolean hashesRequests() {
    return lbPolicy instanceof LbPolicy.RingHash || lbPolicy instanceof LbPolicy.Maglev;
  }
}
