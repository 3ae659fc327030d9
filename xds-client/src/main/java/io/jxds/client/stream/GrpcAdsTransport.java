package io.jxds.client.stream;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;

/**
 * ADS over a gRPC {@link Channel}. Uses {@link ClientCall} directly: it never asks for a message
 * on its own, so the client requests the next response only after the last one's callbacks ran.
 */
public final class GrpcAdsTransport implements AdsTransport {
  private final Channel channel;
  private final ManagedChannel ownedChannel;
  private final String target;

  /**
   * @param channel the channel to the control plane
   * @param ownedChannel the same channel when this transport must shut it down, else null
   * @param target names the control plane in logs
   */
  public GrpcAdsTransport(Channel channel, ManagedChannel ownedChannel, String target) {
    this.channel = channel;
    this.ownedChannel = ownedChannel;
    this.target = target;
  }

  @Override
  public Call start(Listener listener) {
    // No waitForReady (as grpc-java): an unreachable server fails the call and starts the backoff.
    ClientCall<DiscoveryRequest, DiscoveryResponse> call =
        channel.newCall(AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod(), CallOptions.DEFAULT);
    call.start(
        new ClientCall.Listener<>() {
          @Override
          public void onMessage(DiscoveryResponse message) {
            listener.onResponse(message);
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            listener.onClose(status);
          }

          @Override
          public void onReady() {
            listener.onReady();
          }
        },
        new Metadata());
    return new Call() {
      @Override
      public void send(DiscoveryRequest request) {
        call.sendMessage(request);
      }

      @Override
      public void request(int count) {
        call.request(count);
      }

      @Override
      public void cancel(String reason) {
        call.cancel(reason, null);
      }
    };
  }

  @Override
  public void shutdown() {
    if (ownedChannel != null) {
      ownedChannel.shutdownNow();
    }
  }

  @Override
  public String target() {
    return target;
  }
}
