package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.jxds.client.internal.cache.CallbackTracker;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ResponseOutcome;
import io.jxds.client.internal.cache.StreamId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A delta stream ({@code DeltaAggregatedResources}, the xDS protocol's "Incremental xDS"): a
 * request names only the names that went on or off the wire since the last one; the server
 * remembers the rest for the stream's life, so nothing is held, and an explicit unsubscribe says
 * "nothing" to every delta server. A new stream's first request of a type names, in {@code
 * initial_resource_versions}, the versions that same server sent for the watched names, so it
 * need not resend them. Every response is ACKed or NACKed by nonce, also one of a type nothing
 * watches: a delta server waits for the answer before it sends more.
 */
final class DeltaStream extends AdsStream implements AdsTransport.DeltaListener {
  private static final Logger log = LoggerFactory.getLogger(DeltaStream.class);

  /** Per type, the names this stream has asked the server for (what the server tracks). */
  private final Map<String, Set<String>> serverNames = new HashMap<>();
  private AdsTransport.DeltaCall deltaCall;

  DeltaStream(StreamId id, long startNanos, Settings settings, Controller controller) {
    super(id, startNanos, settings, controller);
  }

  @Override
  void start(AdsTransport transport) {
    deltaCall = transport.startDelta(this);
    call = deltaCall;
  }

  @Override
  void sendInitial(String typeUrl) {
    ResourceCache cache = settings.cache();
    List<String> names = cache.wireNames(typeUrl, settings.via());
    if (names.isEmpty()) {
      return; // a first request without names would be a wildcard subscription
    }
    serverNames.put(typeUrl, new HashSet<>(names));
    DeltaDiscoveryRequest.Builder request =
        DeltaDiscoveryRequest.newBuilder()
            .setTypeUrl(typeUrl)
            .addAllResourceNamesSubscribe(names)
            // The versions the client holds: a server need not resend them.
            .putAllInitialResourceVersions(cache.cachedVersions(typeUrl, id, settings.via()));
    send(request, names.size(), 0);
    cache.requestSent(typeUrl, settings.via());
  }

  @Override
  void resync() {
    ResourceCache cache = settings.cache();
    Set<String> typeUrls = new HashSet<>(serverNames.keySet());
    typeUrls.addAll(cache.watchedTypeUrls());
    for (String typeUrl : typeUrls) {
      Set<String> names = new HashSet<>(serverNames.getOrDefault(typeUrl, Set.of()));
      names.addAll(cache.wireNames(typeUrl));
      sendChanges(typeUrl, names);
    }
  }

  @Override
  void sendChanges(String typeUrl, Set<String> names) {
    ResourceCache cache = settings.cache();
    Set<String> onServer = serverNames.computeIfAbsent(typeUrl, t -> new HashSet<>());
    List<String> subscribe = new ArrayList<>();
    List<String> unsubscribe = new ArrayList<>();
    for (String name : names) {
      boolean watched = cache.isWatched(typeUrl, name, settings.via());
      if (watched && onServer.add(name)) {
        subscribe.add(name);
      } else if (!watched && onServer.remove(name)) {
        unsubscribe.add(name);
      }
    }
    if (subscribe.isEmpty() && unsubscribe.isEmpty()) {
      return;
    }
    subscribe.sort(null);
    unsubscribe.sort(null);
    send(
        DeltaDiscoveryRequest.newBuilder()
            .setTypeUrl(typeUrl)
            .addAllResourceNamesSubscribe(subscribe)
            .addAllResourceNamesUnsubscribe(unsubscribe),
        subscribe.size(),
        unsubscribe.size());
    cache.requestSent(typeUrl, settings.via());
  }

  @Override
  public void onResponse(DeltaDiscoveryResponse response) {
    settings.syncContext().execute(() -> handle(response));
  }

  private void handle(DeltaDiscoveryResponse response) {
    String typeUrl = response.getTypeUrl();
    if (!controller.responded(this, typeUrl, response.getSystemVersionInfo(), response.getNonce(),
        response.getResourcesCount())) {
      return;
    }
    CallbackTracker tracker = tracker();
    // ACK or NACK before watcher callbacks, as in state of the world (ARCHITECTURE.md).
    ResponseOutcome outcome = settings.cache().handleDeltaResponse(response, id, settings.via(), tracker,
        o -> answer(response, o));
    if (outcome == null) {
      // Nothing of the type is watched (a wildcard server sends every cluster): still ACKed,
      // since a delta server waits for the answer to a nonce before it sends the next one.
      answer(response, ResponseOutcome.ACCEPTED);
    }
    tracker.finish();
  }

  private void answer(DeltaDiscoveryResponse response, ResponseOutcome outcome) {
    DeltaDiscoveryRequest.Builder request =
        DeltaDiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl()).setResponseNonce(response.getNonce());
    if (!outcome.accepted()) {
      request.setErrorDetail(nackStatus(settings.nackLog().nack(
          response.getTypeUrl(), response.getSystemVersionInfo(), outcome, settings.target())));
    }
    send(request, 0, 0);
  }

  private void send(DeltaDiscoveryRequest.Builder request, int subscribed, int unsubscribed) {
    Node node = takeNode();
    if (node != null) {
      request.setNode(node);
    }
    if (log.isDebugEnabled()) {
      log.debug(
          "delta ADS request to {}: type {}, nonce \"{}\", +{} -{} names{}",
          settings.target(),
          request.getTypeUrl(),
          request.getResponseNonce(),
          subscribed,
          unsubscribed,
          request.hasErrorDetail() ? ", NACK" : "");
    }
    deltaCall.send(request.build());
  }
}
