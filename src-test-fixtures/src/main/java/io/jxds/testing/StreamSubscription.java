package io.jxds.testing;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One ADS stream's state for one type URL: subscribed names, last nonce sent, last version
 * ACKed; classifies and applies that stream's requests. Not thread-safe: guarded by the server's
 * lock.
 */
final class StreamSubscription {
  /** Whether a (non-stale) request for this type arrived on this stream. */
  boolean requested;
  Set<String> names = new LinkedHashSet<>();
  /** Legacy wildcard: the first Listener or Cluster request named nothing. */
  boolean wildcard;
  /** The nonce of the last response sent for this type on this stream; null before the first. */
  String lastNonceSent;
  /** Whether an ACK or NACK for {@link #lastNonceSent} arrived. */
  boolean nonceAnswered;
  /** The version of the last ACK on this stream, "" before the first. */
  String ackedVersion = "";

  /** Classifies a request against what was sent for its type on this stream. */
  RecordedRequest.Kind classify(DiscoveryRequest request) {
    RecordedRequest.Kind byNonce = classifyNonce(
        request.getResponseNonce(), request.hasErrorDetail(), lastNonceSent, nonceAnswered, requested);
    if (byNonce != null) {
      return byNonce;
    }
    return new LinkedHashSet<>(request.getResourceNamesList()).equals(names)
        ? RecordedRequest.Kind.DUPLICATE
        : RecordedRequest.Kind.SUBSCRIPTION_CHANGE;
  }

  /**
   * What a request's nonce (and the stream's state) says it is, or null when that is up to its
   * names: a later request that answers no new response. Shared by both protocols.
   */
  static RecordedRequest.Kind classifyNonce(
      String nonce, boolean hasErrorDetail, String lastNonceSent, boolean nonceAnswered, boolean requested) {
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

  /**
   * Applies a request that is not stale (SotW: every request carries the full name list) and
   * returns the response it calls for, or null.
   */
  DiscoveryResponse apply(ServedType type, DiscoveryRequest request, RecordedRequest.Kind kind) {
    boolean first = !requested;
    requested = true;
    Set<String> newNames = new LinkedHashSet<>(request.getResourceNamesList());
    Set<String> added = new LinkedHashSet<>(newNames);
    added.removeAll(names);
    names = newNames;
    if (first) {
      wildcard = newNames.isEmpty() && type.fullState;
    } else if (!newNames.isEmpty()) {
      wildcard = false;
    }
    if (kind == RecordedRequest.Kind.ACK || kind == RecordedRequest.Kind.NACK) {
      nonceAnswered = true;
    }
    if (kind == RecordedRequest.Kind.ACK) {
      ackedVersion = request.getVersionInfo();
    }
    // A new stream gets the data even if its version_info is current: the client may have lost
    // its cache, or be a new process reusing a version string. New names get the current
    // version at once. ACKs, NACKs and removals are not answered (a NACKed version is not
    // re-sent; the next change is).
    if (first || !added.isEmpty()) {
      return type.responseFor(this);
    }
    return null;
  }
}
