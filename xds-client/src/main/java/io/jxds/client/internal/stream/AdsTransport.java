package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;

/**
 * Opens ADS calls: state of the world ({@code AggregatedDiscoveryService/StreamAggregatedResources})
 * and, where the transport supports it, incremental ({@code DeltaAggregatedResources}). The gRPC
 * implementation is {@link GrpcAdsTransport}; tests and benchmarks may script one in memory.
 */
public interface AdsTransport {
  /** Starts a new state-of-the-world call; its events reach {@code listener} on any thread. */
  Call start(Listener listener);

  /**
   * Starts a new delta (incremental) call; its events reach {@code listener} on any thread.
   *
   * @throws UnsupportedOperationException if this transport speaks state of the world only
   */
  default DeltaCall startDelta(DeltaListener listener) {
    throw new UnsupportedOperationException(target() + ": this transport does not speak delta xDS");
  }

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

  /** What both kinds of call share. Not thread-safe: the client calls it from its sync context. */
  interface CallControl {
    /** Asks for {@code count} more responses (manual flow control). */
    void request(int count);

    void cancel(String reason);
  }

  /** One bidirectional state-of-the-world ADS call. */
  interface Call extends CallControl {
    void send(DiscoveryRequest request);
  }

  /** One bidirectional delta ADS call. */
  interface DeltaCall extends CallControl {
    void send(DeltaDiscoveryRequest request);
  }

  /** Events of a state-of-the-world call. */
  interface Listener extends Events {
    void onResponse(DiscoveryResponse response);
  }

  /** Events of a delta call. */
  interface DeltaListener extends Events {
    void onResponse(DeltaDiscoveryResponse response);
  }

  /** Events of one call, whatever its protocol. */
  interface Events {
    /** The call can take messages without buffering; the first time means the transport is up. */
    void onReady();

    void onClose(Status status);

    /**
     * The call is waiting for a connection (it was started wait-for-ready) and connecting just
     * failed; the call stays open and starts once a connection is up. Only transports that hold
     * calls this way report it; others fail the call instead.
     *
     * @param cause why, as the transport tells it (a refused connection, an unknown host), for
     *     logs and for watchers
     */
    void onConnectionFailure(Status cause);
  }
}
