package io.jxds.balancer;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.NameResolver;
import io.jxds.api.XdsClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The public face of the {@code xds_cluster} load-balancing policy: its name, and the two ways to
 * hand the policy an {@link XdsClient} of your own instead of one built from the bootstrap.
 *
 * <p>A client handed in is owned by the caller: jxds never closes it.
 */
public final class XdsClusterPolicy {
  /** The policy's name in a service config: {@code {"loadBalancingConfig":[{"xds_cluster":{...}}]}}. */
  public static final String POLICY_NAME = "xds_cluster";

  /** The target scheme of {@code xds-cluster:///NAME}. */
  public static final String TARGET_SCHEME = "xds-cluster";

  /**
   * Hands a client to every {@code xds_cluster} balancer of a channel:
   * {@code ManagedChannelBuilder.forTarget(...).setNameResolverArg(XDS_CLIENT_ARG, client)}.
   */
  public static final NameResolver.Args.Key<XdsClient> XDS_CLIENT_ARG =
      NameResolver.Args.Key.create("io.jxds.xdsClient");

  /**
   * Hands a client to the balancer through {@code ResolvedAddresses.getAttributes()}, for name
   * resolvers and parent policies that build the {@code xds_cluster} config themselves. Wins over
   * {@link #XDS_CLIENT_ARG}.
   */
  public static final Attributes.Key<XdsClient> XDS_CLIENT_ATTRIBUTE =
      Attributes.Key.create("io.jxds.xdsClient");

  // RFC 3986, section 3.3: what a path segment holds as is (unreserved, sub-delims, ":", "@").
  private static final String PATH_SEGMENT_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /**
   * The request's hash under a ring hash or maglev cluster, set per call by the application or an
   * interceptor: {@code stub.withOption(XdsClusterPolicy.REQUEST_HASH, hash)}. RPCs with the same
   * hash go to the same endpoint while the endpoints do not change. It wins over the
   * {@code hashHeader} of {@link #serviceConfig(String, String)}; with neither, each RPC gets a
   * random hash. Other policies ignore it.
   */
  public static final CallOptions.Key<Long> REQUEST_HASH = CallOptions.Key.create("io.jxds.requestHash");

  private XdsClusterPolicy() {}

  /**
   * The channel target that routes to {@code cluster} through the {@code xds-cluster} resolver:
   * {@code xds-cluster:///} followed by the cluster name, percent-encoded so that any name survives
   * gRPC's target parsing. Letters, digits and {@code - . _ ~ ! $ & ' ( ) * + , ; = : @} (the
   * characters RFC 3986 allows in a path segment) stay as they are; every other character, {@code
   * /}, {@code %}, {@code ?}, {@code #}, {@code |}, spaces and non-ASCII characters included, is
   * written as the {@code %XX} escapes of its UTF-8 bytes. The resolver decodes them. For an Istio
   * cluster, {@code target("outbound|8080||echo.default.svc.cluster.local")} is {@code
   * xds-cluster:///outbound%7C8080%7C%7Cecho.default.svc.cluster.local}.
   *
   * <p>Written by hand, such a name fails: gRPC rejects {@code xds-cluster:///outbound|8080||...}
   * in {@code ManagedChannelBuilder.build()} ("Could not find a NameResolverProvider", before any
   * resolver sees it), and the resolver rejects a target that gRPC split at {@code ?} or {@code #},
   * naming this method.
   *
   * @param cluster the CDS cluster name, as the control plane names it
   * @return the target for {@code Grpc.newChannelBuilder(target, credentials)}
   * @throws IllegalArgumentException if {@code cluster} is empty
   */
  public static String target(String cluster) {
    checkClusterName(cluster);
    return TARGET_SCHEME + ":///" + encodePathSegment(cluster);
  }

  /**
   * A service config that selects this policy for {@code cluster}, for a channel on a target of its
   * own: {@code builder.defaultServiceConfig(XdsClusterPolicy.serviceConfig("payments"))
   * .disableServiceConfigLookUp()}. The target's own addresses are then ignored: the control plane
   * decides.
   *
   * @param cluster the CDS cluster's name
   * @return the service config, as {@code defaultServiceConfig} takes it
   * @throws IllegalArgumentException if {@code cluster} is empty
   */
  public static Map<String, ?> serviceConfig(String cluster) {
    checkClusterName(cluster);
    return Map.of("loadBalancingConfig", List.of(Map.of(POLICY_NAME, Map.of("cluster", cluster))));
  }

  /**
   * A service config that selects this policy for {@code cluster} and hashes each request by the
   * value of the header {@code hashHeader} when the cluster's policy is ring hash or maglev (the
   * values of a repeated header joined with {@code ","}): {@code
   * builder.defaultServiceConfig(XdsClusterPolicy.serviceConfig("carts", "x-user-id"))}. A call
   * without the header gets a random hash unless it sets {@link #REQUEST_HASH}.
   *
   * @param cluster the cluster to route to
   * @param hashHeader a gRPC ASCII header name, such as {@code "x-user-id"}
   * @return the service config, for {@code ManagedChannelBuilder.defaultServiceConfig}
   * @throws IllegalArgumentException if {@code cluster} or {@code hashHeader} is empty
   */
  public static Map<String, ?> serviceConfig(String cluster, String hashHeader) {
    checkClusterName(cluster);
    Objects.requireNonNull(hashHeader, "hashHeader");
    if (hashHeader.isEmpty()) {
      throw new IllegalArgumentException("hashHeader must not be empty");
    }
    return Map.of("loadBalancingConfig",
        List.of(Map.of(POLICY_NAME, Map.of("cluster", cluster, "hashHeader", hashHeader))));
  }

  // "/" is encoded too: the name stays one segment, which no dot-segment rule can touch.
  private static String encodePathSegment(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x80 && PATH_SEGMENT_CHARS.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }

  private static void checkClusterName(String cluster) {
    Objects.requireNonNull(cluster, "cluster");
    if (cluster.isEmpty()) {
      throw new IllegalArgumentException("cluster must not be empty");
    }
  }
}
