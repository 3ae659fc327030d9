package io.jxds.client.internal.stream;

import java.util.Objects;

/**
 * One control plane of the client's ordered list (the bootstrap's {@code xds_servers}): how to
 * reach it and which wire protocol it speaks.
 *
 * @param transport opens ADS calls to it
 * @param delta whether to speak delta xDS ({@code DeltaAggregatedResources}) rather than state of
 *     the world
 * @param ignoreResourceDeletion gRFC A53: the server's {@code ignore_resource_deletion} feature, which
 *     applies while it serves
 */
public record AdsServer(AdsTransport transport, boolean delta, boolean ignoreResourceDeletion) {
  public AdsServer {
    Objects.requireNonNull(transport, "transport");
  }

  /** A server without {@code ignore_resource_deletion}. */
  public AdsServer(AdsTransport transport, boolean delta) {
    this(transport, delta, false);
  }
}
