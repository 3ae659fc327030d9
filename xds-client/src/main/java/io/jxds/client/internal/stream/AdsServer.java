package io.jxds.client.internal.stream;

import java.util.Objects;

/**
 * One control plane of the client's ordered list (the bootstrap's {@code xds_servers}): how to
 * reach it and which wire protocol it speaks.
 *
 * @param transport opens ADS calls to it
 * @param delta whether to speak delta xDS ({@code DeltaAggregatedResources}) rather than state of
 *     the world
 */
public record AdsServer(AdsTransport transport, boolean delta) {
  public AdsServer {
    Objects.requireNonNull(transport, "transport");
  }
}
