package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * ADS over a gRPC {@link Channel}, state of the world or delta. Uses {@link ClientCall} directly:
 * it never asks for a message on its own, so the client requests the next response only after the
 * last one's callbacks ran.
 *
 * <p>On a {@link ManagedChannel} (whose connectivity state can be watched) each call is started
 * wait-for-ready: it waits for the channel's connection and starts the moment the channel
 * reconnects, so the stream's retry backoff does not stack on top of the channel's reconnect
 * backoff. Such a call never fails while the channel is in {@code TRANSIENT_FAILURE}, so this
 * transport watches the channel and reports each failure to connect to the waiting call's
 * listener, with the channel's own reason (see {@link #probe}). On any other {@link Channel} a
 * call fails as soon as connecting fails, and the client's own backoff paces the retries.
 */
public final class GrpcAdsTransport implements AdsTransport {
  private final Channel channel;
  private final ManagedChannel ownedChannel;
  private final String target;
  /** The channel whose state is watched, or null when it cannot be. */
  private final ManagedChannel watched;
  private final AtomicBoolean watching = new AtomicBoolean();
  /** The last call started wait-for-ready; told about failures until it is on a transport or over. */
  private volatile PendingCall pending;
  private volatile boolean shutdown;

  /**
   * @param channel the channel to the control plane
   * @param ownedChannel the same channel when this transport must shut it down, else null
   * @param target names the control plane in logs
   */
  public GrpcAdsTransport(Channel channel, ManagedChannel ownedChannel, String target) {
    this.channel = channel;
    this.ownedChannel = ownedChannel;
    this.target = target;
    this.watched = channel instanceof ManagedChannel m && supportsState(m) ? m : null;
  }

  private static boolean supportsState(ManagedChannel channel) {
    try {
      channel.getState(false);
      return true;
    } catch (UnsupportedOperationException e) {
      return false; // a ManagedChannel implementation without connectivity state
    }
  }

  @Override
  public Call start(Listener listener) {
    return new SotwCall(startCall(
        AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod(), listener, listener::onResponse));
  }

  @Override
  public DeltaCall startDelta(DeltaListener listener) {
    return new DeltaGrpcCall(startCall(
        AggregatedDiscoveryServiceGrpc.getDeltaAggregatedResourcesMethod(), listener, listener::onResponse));
  }

  /** A started {@link ClientCall}, whichever protocol it speaks. */
  private abstract static class GrpcCall<Q> implements CallControl {
    private final ClientCall<Q, ?> call;

    GrpcCall(ClientCall<Q, ?> call) {
      this.call = call;
    }

    void sendMessage(Q request) {
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
  }

  private static final class SotwCall extends GrpcCall<DiscoveryRequest> implements Call {
    SotwCall(ClientCall<DiscoveryRequest, ?> call) {
      super(call);
    }

    @Override
    public void send(DiscoveryRequest request) {
      sendMessage(request);
    }
  }

  private static final class DeltaGrpcCall extends GrpcCall<DeltaDiscoveryRequest> implements DeltaCall {
    DeltaGrpcCall(ClientCall<DeltaDiscoveryRequest, ?> call) {
      super(call);
    }

    @Override
    public void send(DeltaDiscoveryRequest request) {
      sendMessage(request);
    }
  }

  private <Q, R> ClientCall<Q, R> startCall(MethodDescriptor<Q, R> method, Events listener, Consumer<R> onResponse) {
    CallOptions options = watched != null ? CallOptions.DEFAULT.withWaitForReady() : CallOptions.DEFAULT;
    ClientCall<Q, R> call = channel.newCall(method, options);
    PendingCall waiting = watched != null ? new PendingCall(listener) : null;
    pending = waiting;
    call.start(
        new ClientCall.Listener<>() {
          @Override
          public void onMessage(R message) {
            onResponse.accept(message);
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            connected(waiting);
            listener.onClose(status);
          }

          @Override
          public void onReady() {
            connected(waiting);
            listener.onReady();
          }
        },
        new Metadata());
    if (waiting != null) {
      if (watching.compareAndSet(false, true)) {
        watchState(null);
      } else if (watched.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
        probe(waiting); // the channel was failing before this call started
      }
    }
    return call;
  }

  /** The call no longer waits for the connection: it is on a transport, or over. */
  private void connected(PendingCall call) {
    if (call != null) {
      call.done = true;
    }
  }

  /**
   * Follows the channel's state for the transport's life, one callback registered at a time, and
   * tells the waiting call each time the channel enters {@code TRANSIENT_FAILURE}.
   */
  private void watchState(ConnectivityState previous) {
    if (shutdown) {
      return;
    }
    ConnectivityState now = watched.getState(false);
    if (now == ConnectivityState.SHUTDOWN) {
      return;
    }
    if (now == ConnectivityState.TRANSIENT_FAILURE && previous != ConnectivityState.TRANSIENT_FAILURE) {
      PendingCall waiting = pending;
      if (waiting != null) {
        probe(waiting);
      }
    }
    watched.notifyWhenStateChanged(now, () -> watchState(now));
  }

  /**
   * Tells {@code waiting} why the channel cannot connect. A wait-for-ready call never sees the
   * reason, and the channel's state does not carry it; but a call started without wait-for-ready
   * fails at once with the channel's own failure (the load balancer's: {@code io exception}
   * caused by {@code Connection refused: /127.0.0.1:9}, or {@code Unable to resolve host ...}
   * caused by an {@code UnknownHostException}). The probe sends nothing; should it reach a
   * transport (the channel connected meanwhile), it is cancelled, and nothing is reported.
   */
  private void probe(PendingCall waiting) {
    ClientCall<DiscoveryRequest, DiscoveryResponse> probe =
        channel.newCall(AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod(), CallOptions.DEFAULT);
    AtomicBoolean connected = new AtomicBoolean();
    probe.start(
        new ClientCall.Listener<>() {
          @Override
          public void onReady() {
            if (connected.compareAndSet(false, true)) {
              probe.cancel("jxds: the channel is connected, no reason to learn", null);
            }
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            if (!connected.get()) {
              waiting.failed(cannotConnect(status));
            }
          }
        },
        new Metadata());
  }

  /**
   * The channel's failure as watchers read it: its text and its cause's, which gRPC keeps apart
   * (the cause names the address or the host).
   */
  static Status cannotConnect(Status channelFailure) {
    StringBuilder text = new StringBuilder("cannot connect: ");
    text.append(channelFailure.getDescription() == null ? channelFailure.getCode() : channelFailure.getDescription());
    Throwable cause = channelFailure.getCause();
    if (cause != null) {
      text.append(" (").append(javaName(cause.getClass()));
      if (cause.getMessage() != null) {
        text.append(": ").append(cause.getMessage());
      }
      text.append(')');
    }
    return Status.UNAVAILABLE.withDescription(text.toString()).withCause(cause);
  }

  /** The nearest {@code java.*} class name ({@code ConnectException} for a transport's subclass of it). */
  private static String javaName(Class<?> type) {
    Class<?> c = type;
    while (c.getSuperclass() != null && !c.getName().startsWith("java.")) {
      c = c.getSuperclass();
    }
    return c.getName().startsWith("java.") ? c.getSimpleName() : type.getSimpleName();
  }

  /**
   * Cuts the channel's reconnect backoff short ({@link ManagedChannel#resetConnectBackoff()}),
   * only on a channel this transport owns: a caller's channel keeps its own reconnect policy.
   */
  @Override
  public boolean reconnectNow() {
    if (ownedChannel == null || watched == null) {
      return false;
    }
    ownedChannel.resetConnectBackoff();
    return true;
  }

  @Override
  public void shutdown() {
    shutdown = true;
    pending = null;
    if (ownedChannel != null) {
      ownedChannel.shutdownNow();
    }
  }

  @Override
  public String target() {
    return target;
  }

  /** A wait-for-ready call that has not reached a transport yet. */
  private static final class PendingCall {
    final Events listener;
    volatile boolean done;

    PendingCall(Events listener) {
      this.listener = listener;
    }

    void failed(Status cause) {
      if (!done) {
        listener.onConnectionFailure(cause);
      }
    }
  }
}
