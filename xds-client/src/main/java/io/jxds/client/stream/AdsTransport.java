package io.jxds.client.stream;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;

/**
 * Opens ADS calls ({@code AggregatedDiscoveryService/StreamAggregatedResources}). The gRPC
 * implementation is {@link GrpcAdsTransport}; tests and benchmarks may script one in memory.
 */
public interface AdsTransport {
  /** Starts a new call; its events reach {@code listener} on any thread. */
  Call start(Listener listener);

  /** Releases the transport (the channel, if this transport owns it). */
  void shutdown();

  /** Names the control plane in logs and errors. */
  String target();

  /** One bidirectional ADS call. Not thread-safe: the client calls it from its sync context. */
  interface Call {
    void send(DiscoveryRequest request);

    /** Asks for {@code count} more responses (manual flow control). */
    void request(int count);

    void cancel(String reason);
  }

  /** Events of one call. */
  interface Listener {
    /** The call can take messages without buffering; the first time means the transport is up. */
    void onReady();

    void onResponse(DiscoveryResponse response);

    void onClose(Status status);
  }
}
