package io.jxds.testing;

import com.google.protobuf.Message;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One ADS stream's state for one type URL, in either protocol: whether the client asked for it,
 * the last nonce sent and whether it was answered, the last version ACKed. Not thread-safe:
 * guarded by the server's {@link Monitor}.
 */
abstract sealed class Subscription permits StreamSubscription, DeltaSubscription {
  /** Whether a request for this type arrived on this stream (state of the world: a non-stale one). */
  boolean requested;
  /** The nonce of the last response sent for this type on this stream; null before the first. */
  @Nullable String lastNonceSent;
  /** Whether an ACK or NACK for {@link #lastNonceSent} arrived. */
  boolean nonceAnswered;
  /** The version of the last ACK on this stream, "" before the first. */
  String ackedVersion = "";

  /** The names subscribed now. */
  abstract Set<String> names();

  /** The response (without nonce) this subscription calls for, or null when there is nothing to send. */
  abstract @Nullable Message responseFor(ServedType type);

  /**
   * What a request's nonce (and this state) says it is, or null when that is up to its names: a
   * later request that answers no new response.
   */
  final RecordedRequest.@Nullable Kind classifyNonce(String nonce, boolean hasErrorDetail) {
    if (!nonce.isEmpty()) {
      // The nonce says which response a request answers, and only the last one sent on this
      // stream counts (xDS protocol, "ACK/NACK and resource type instance version"). Nonces are
      // per stream: one from an earlier stream is stale too.
      if (!nonce.equals(lastNonceSent)) {
        return RecordedRequest.Kind.STALE;
      }
      if (hasErrorDetail) {
        return RecordedRequest.Kind.NACK;
      }
      if (!nonceAnswered) {
        return RecordedRequest.Kind.ACK;
      }
    }
    return requested ? null : RecordedRequest.Kind.INITIAL;
  }

  /** Notes what a request of {@code kind} answered: an ACK accepts {@code version}. */
  final void noteAnswer(RecordedRequest.Kind kind, String version) {
    if (kind == RecordedRequest.Kind.ACK || kind == RecordedRequest.Kind.NACK) {
      nonceAnswered = true;
    }
    if (kind == RecordedRequest.Kind.ACK) {
      ackedVersion = version;
    }
  }

  /** Notes a response sent with {@code nonce}; the client's next answer to it is an ACK or NACK. */
  final void noteSent(String nonce) {
    lastNonceSent = nonce;
    nonceAnswered = false;
  }
}
