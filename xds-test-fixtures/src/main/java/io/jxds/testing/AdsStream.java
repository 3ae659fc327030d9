package io.jxds.testing;

import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One ADS stream a {@link FakeAdsServer} has accepted, in one protocol (the subclass: state of the
 * world or delta): its id, one subscription per type URL, and where its responses go. Guarded by
 * the server's {@link Monitor}, except the writes ({@link #send}, {@link #fail}, {@link
 * #complete}), which only the {@link ResponseSender}'s thread makes, so writes to one stream never
 * overlap.
 *
 * @param <S> the protocol's per-type state
 */
abstract sealed class AdsStream<S extends Subscription> permits SotwStream, DeltaStream {
  /** The server-assigned id, 1, 2, ... in the order streams opened. */
  final long id;
  private final ServerCallStreamObserver<?> out;
  private final Map<String, S> types = new HashMap<>();
  /** False once the stream ended, was broken, or the server stopped. */
  boolean open = true;

  AdsStream(long id, ServerCallStreamObserver<?> out) {
    this.id = id;
    this.out = out;
  }

  /** What a request did: its record, and the response it calls for (null for none). */
  record Handled(RecordedRequest recorded, @Nullable Message response) {}

  /** Classifies and applies a request of this stream's protocol against what is served. */
  abstract Handled handle(Message request, ServedResources served);

  /**
   * Sets {@code nonce} on {@code response} (unless null: sent as is) and notes it as the last one
   * sent for its type, so the client's answer to it is classified as an ACK or NACK.
   *
   * @return the response to write
   */
  abstract Message noteSent(Message response, @Nullable String nonce);

  /** Whether {@code response} is of this stream's protocol. */
  abstract boolean speaks(Message response);

  /** A new subscription of this protocol. */
  abstract S newSubscription();

  /** This stream's state for {@code typeUrl}, created on first use. */
  final S subscription(String typeUrl) {
    return types.computeIfAbsent(typeUrl, k -> newSubscription());
  }

  /** The response a change of {@code type} calls for on this stream, or null for none. */
  final @Nullable Message pushFor(ServedType type) {
    S state = types.get(type.typeUrl);
    return state != null && state.requested ? state.responseFor(type) : null;
  }

  /** Adds the names of {@code typeUrl} this stream subscribes to. */
  final void addSubscribedNames(String typeUrl, Set<String> names) {
    S state = types.get(typeUrl);
    if (state != null) {
      names.addAll(state.names());
    }
  }

  /** Writes a response of this stream's protocol. */
  @SuppressWarnings("unchecked")
  final void send(Message response) {
    ((StreamObserver<Message>) out).onNext(response);
  }

  /** Ends the stream with {@code status}. */
  final void fail(Status status) {
    out.onError(status.asRuntimeException());
  }

  /** Ends the stream cleanly, as the client did. */
  final void complete() {
    out.onCompleted();
  }

  /** Whether the client went away (a failed write then is no failure of the server). */
  final boolean isCancelled() {
    return out.isCancelled();
  }
}
