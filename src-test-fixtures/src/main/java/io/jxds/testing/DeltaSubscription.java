package io.jxds.testing;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One delta ADS stream's state for one type URL: the subscribed names, the version of each
 * resource the server believes the client holds, the last nonce sent; classifies and applies that
 * stream's requests. Not thread-safe: guarded by the server's lock.
 */
final class DeltaSubscription {
  /** Whether a request for this type arrived on this stream. */
  boolean requested;
  final Set<String> names = new LinkedHashSet<>();
  /** Name to the version the client holds: sent to it, or named in initial_resource_versions. */
  final Map<String, String> clientVersions = new HashMap<>();
  /** The nonce of the last response sent for this type on this stream; null before the first. */
  String lastNonceSent;
  boolean nonceAnswered;
  /** The system_version_info of the last response sent. */
  String lastVersionSent = "";
  /** The system_version_info of the last response ACKed, "" before the first. */
  String ackedVersion = "";

  /** Classifies a request against what was sent for its type on this stream. */
  RecordedRequest.Kind classify(DeltaDiscoveryRequest request) {
    RecordedRequest.Kind byNonce = StreamSubscription.classifyNonce(
        request.getResponseNonce(), request.hasErrorDetail(), lastNonceSent, nonceAnswered, requested);
    if (byNonce != null) {
      return byNonce;
    }
    return request.getResourceNamesSubscribeCount() + request.getResourceNamesUnsubscribeCount() == 0
        ? RecordedRequest.Kind.DUPLICATE
        : RecordedRequest.Kind.SUBSCRIPTION_CHANGE;
  }

  /**
   * Applies a request (its subscription changes count even when its nonce is stale: a delta
   * request's names are not a snapshot) and returns the response it calls for, or null.
   */
  DeltaDiscoveryResponse apply(ServedType type, DeltaDiscoveryRequest request, RecordedRequest.Kind kind) {
    boolean first = !requested;
    requested = true;
    boolean added = false;
    for (String name : request.getResourceNamesUnsubscribeList()) {
      names.remove(name);
      clientVersions.remove(name);
    }
    for (String name : request.getResourceNamesSubscribeList()) {
      added |= names.add(name);
    }
    if (first) {
      request.getInitialResourceVersionsMap().forEach((name, version) -> {
        if (names.contains(name)) {
          clientVersions.put(name, version);
        }
      });
    }
    if (kind == RecordedRequest.Kind.ACK || kind == RecordedRequest.Kind.NACK) {
      nonceAnswered = true;
    }
    if (kind == RecordedRequest.Kind.ACK) {
      ackedVersion = lastVersionSent;
    }
    if (kind == RecordedRequest.Kind.STALE || !(first || added)) {
      return null;
    }
    return type.deltaResponseFor(this);
  }

  /**
   * The request as a state-of-the-world one, for {@link RecordedRequest}: {@code version_info} is
   * the version an ACK accepts (else the last ACKed one) and {@code resource_names} the names
   * subscribed once it is applied.
   */
  DiscoveryRequest asRecorded(DeltaDiscoveryRequest request, RecordedRequest.Kind kind, String ackingVersion) {
    DiscoveryRequest.Builder out =
        DiscoveryRequest.newBuilder()
            .setTypeUrl(request.getTypeUrl())
            .setVersionInfo(kind == RecordedRequest.Kind.ACK ? ackingVersion : ackedVersion)
            .setResponseNonce(request.getResponseNonce())
            .addAllResourceNames(names);
    if (request.hasNode()) {
      out.setNode(request.getNode());
    }
    if (request.hasErrorDetail()) {
      out.setErrorDetail(request.getErrorDetail());
    }
    return out.build();
  }
}
