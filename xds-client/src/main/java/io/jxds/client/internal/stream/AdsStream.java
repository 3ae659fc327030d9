package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.client.internal.cache.CallbackTracker;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.StreamId;
import java.util.Set;

/**
 * One ADS call and what the client knows about it, for either wire protocol ({@link SotwStream},
 * {@link DeltaStream}). Its transport events hop onto the client's {@link SynchronizationContext}
 * and reach its {@link AdsStreamController}, which decides what the stream's life means (gRFC
 * A57); the subclasses build its requests and hand its responses to the cache.
 *
 * <p>Every request carries the node unless the client opted out (java-control-plane hashes the
 * node of every request to pick a snapshot group; ARCHITECTURE.md, "The xDS client").
 */
abstract class AdsStream implements AdsTransport.Events {
  /**
   * What every stream of one controller shares. {@code via}: the controller when streams carry
   * different names (federation, gRFC A47: a stream carries the names of the chains that have its
   * server active, see {@code ResourceCache.wireNames}), null when one chain carries every name.
   */
  record Settings(
      SynchronizationContext syncContext,
      ResourceCache cache,
      Node node,
      boolean nodeOnFirstRequestOnly,
      String target,
      NackLog nackLog,
      Object via) {}

  /** What a stream tells its controller, and asks it. */
  interface Controller {
    /** The stream is ready for requests. */
    void ready(AdsStream stream);

    /** The call ended. */
    void closed(AdsStream stream, Status status);

    /** The stream waits for a connection and connecting failed. */
    void connectionFailed(AdsStream stream, Status cause);

    /** A response arrived: the stream works. Returns false if the stream is no longer current. */
    boolean responded(AdsStream stream, String typeUrl, String version, String nonce, int resources);

    /** Every callback of the last response has run: read the next one. */
    void requestNext(AdsStream stream);
  }

  final StreamId id;
  final long startNanos;
  final Settings settings;
  final Controller controller;
  AdsTransport.CallControl call;
  boolean ready;
  long readyNanos;
  boolean receivedResponse;
  private boolean nodeSent;

  AdsStream(StreamId id, long startNanos, Settings settings, Controller controller) {
    this.id = id;
    this.startNanos = startNanos;
    this.settings = settings;
    this.controller = controller;
  }

  /** Starts the call; sets {@link #call}. */
  abstract void start(AdsTransport transport);

  /** The stream is ready: the type's first request, naming every name on the wire. */
  abstract void sendInitial(String typeUrl);

  /** Names of the type went on or off the wire ({@code names}, for delta). */
  abstract void sendChanges(String typeUrl, Set<String> names);

  /**
   * The names this stream carries changed without going on or off the wire (a chain fell back to
   * its server or left it, federation): requests that bring the server up to date.
   */
  abstract void resync();

  /** The node for the next request: every request's unless opted out, then only the first's. */
  final Node takeNode() {
    boolean send = !settings.nodeOnFirstRequestOnly() || !nodeSent;
    nodeSent = true;
    return send ? settings.node() : null;
  }

  /** Counts the callbacks of one response; when all have run, the next response is read. */
  final CallbackTracker tracker() {
    return new CallbackTracker(
        () -> settings.syncContext().execute(() -> controller.requestNext(this)));
  }

  /** The NACK's {@code error_detail}: google.rpc.Status INVALID_ARGUMENT with {@code detail}. */
  static com.google.rpc.Status nackStatus(String detail) {
    return com.google.rpc.Status.newBuilder().setCode(Status.Code.INVALID_ARGUMENT.value()).setMessage(detail).build();
  }

  @Override
  public final void onReady() {
    settings.syncContext().execute(() -> controller.ready(this));
  }

  @Override
  public final void onClose(Status status) {
    settings.syncContext().execute(() -> controller.closed(this, status));
  }

  @Override
  public final void onConnectionFailure(Status cause) {
    settings.syncContext().execute(() -> controller.connectionFailed(this, cause));
  }
}
