package io.jxds.balancer;

import io.grpc.Attributes;
import io.grpc.NameResolver;
import io.jxds.api.XdsClient;

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

  private XdsClusterPolicy() {}
}
