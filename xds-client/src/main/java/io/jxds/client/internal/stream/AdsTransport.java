package io.jxds.client.internal.stream;

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

  /**
   * Asks a failing connection to retry now rather than after its own reconnect backoff. Returns
   * false when this transport cannot (the default), so the caller stops asking.
   */
  default boolean reconnectNow() {
    return false;
  }

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

    /**
     * The call is waiting for a connection (it was started wait-for-ready) and connecting just
     * failed; the call stays open and starts once a connection is up. Only transports that hold
     * calls this way report it; others fail the call instead.
     */
    void onConnectionFailure();
  }
}
