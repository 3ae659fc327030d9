package io.jxds.client.internal.stream;

import io.grpc.Channel;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One control plane of the client's ordered list (the bootstrap's {@code xds_servers}): how to
 * reach it and which wire protocol it speaks.
 *
 * @param transport opens ADS calls to it
 * @param delta whether to speak delta xDS ({@code DeltaAggregatedResources}) rather than state of
 *     the world
 * @param ignoreResourceDeletion gRFC A53: the server's {@code ignore_resource_deletion} feature, which
 *     applies while it serves
 * @param lrsChannel its channel, for load reports when it is the first of a list (gRFC A47: a
 *     cluster's {@code lrs_server} "self" is its authority's server); null: counted, never sent
 */
public record AdsServer(
    AdsTransport transport, boolean delta, boolean ignoreResourceDeletion, @Nullable Channel lrsChannel) {
  public AdsServer {
    Objects.requireNonNull(transport, "transport");
  }

  /** A server without a load-report channel. */
  public AdsServer(AdsTransport transport, boolean delta, boolean ignoreResourceDeletion) {
    this(transport, delta, ignoreResourceDeletion, null);
  }

  /** A server without {@code ignore_resource_deletion}. */
  public AdsServer(AdsTransport transport, boolean delta) {
    this(transport, delta, false);
  }
}
