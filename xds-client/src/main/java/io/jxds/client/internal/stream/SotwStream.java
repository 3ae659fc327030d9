package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.jxds.client.internal.cache.CallbackTracker;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ResponseOutcome;
import io.jxds.client.internal.cache.StreamId;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A state-of-the-world stream ({@code StreamAggregatedResources}): every request of a type lists
 * every name of the type on the wire, with the type's last accepted version and the nonce of its
 * last response. A response is ACKed (its version) or NACKed (the last accepted version, and
 * {@code error_detail}) by a request naming the same names.
 *
 * <p>No request says "nothing": when the last name of a type leaves, the xDS protocol ("How the
 * client specifies what resources to return") reads an empty {@code resource_names} as "no
 * resources" once a stream has named some, and as the legacy wildcard before; but
 * java-control-plane's SimpleCache reads it as the wildcard always, and answers with every
 * resource of the type, while an explicit "*" is the wildcard on every server. So none is sent:
 * the last request stands and the cache holds its name (ARCHITECTURE.md, "The xDS client").
 */
final class SotwStream extends AdsStream implements AdsTransport.Listener {
  private static final Logger log = LoggerFactory.getLogger(SotwStream.class);

  private final SotwRequests requests;
  private final Map<String, String> nonces = new HashMap<>();
  private final Set<String> respondedTypes = new HashSet<>();
  private final Map<String, AnsweredRequest> answered = new HashMap<>();
  private AdsTransport.Call sotwCall;

  SotwStream(StreamId id, long startNanos, Settings settings, Controller controller, SotwRequests requests) {
    super(id, startNanos, settings, controller);
    this.requests = requests;
  }

  @Override
  void start(AdsTransport transport) {
    sotwCall = transport.start(this);
    call = sotwCall;
  }

  @Override
  void sendInitial(String typeUrl) {
    sendNames(typeUrl);
  }

  @Override
  void sendChanges(String typeUrl, Set<String> names) {
    sendNames(typeUrl);
  }

  @Override
  void resync() {
    for (String typeUrl : settings.cache().watchedTypeUrls()) {
      requests.namesChanged(typeUrl);
      sendNames(typeUrl);
    }
  }

  private void sendNames(String typeUrl) {
    ResourceCache cache = settings.cache();
    Object via = settings.via();
    if (!cache.hasWatched(typeUrl, via)) {
      return; // the last name of the type left: the request naming it stands (class comment)
    }
    send(typeUrl, requests.acceptedVersion(typeUrl), cache.wireNames(typeUrl, via),
        nonces.getOrDefault(typeUrl, ""), null);
    // The request is on a ready stream now: only from here may the server be blamed (A57).
    cache.requestSent(typeUrl, via);
  }

  @Override
  public void onResponse(DiscoveryResponse response) {
    settings.syncContext().execute(() -> handle(response));
  }

  private void handle(DiscoveryResponse response) {
    String typeUrl = response.getTypeUrl();
    if (!controller.responded(this, typeUrl, response.getVersionInfo(), response.getNonce(),
        response.getResourcesCount())) {
      return;
    }
    nonces.put(typeUrl, response.getNonce());
    long answeredMark =
        answered.computeIfAbsent(typeUrl, t -> new AnsweredRequest()).responded(response.getVersionInfo());
    CallbackTracker tracker = tracker();
    // The ACK or NACK goes out as soon as the response is validated and cached, before watcher
    // callbacks: a callback that runs inline (a channel's SynchronizationContext) must not hold
    // the control plane's view of this client back. The next response still waits for every
    // callback (the tracker), so flow control is unchanged.
    ResponseOutcome outcome = settings.cache().handleResponse(
        response, id.server(), tracker, respondedTypes.add(typeUrl), answeredMark, settings.via(),
        o -> answer(response, o));
    if (outcome == null) {
      log.debug("ignoring ADS response of type {}: none of its names is on the wire", typeUrl);
    }
    tracker.finish();
  }

  private void answer(DiscoveryResponse response, ResponseOutcome outcome) {
    String typeUrl = response.getTypeUrl();
    List<String> names = settings.cache().wireNames(typeUrl, settings.via());
    if (outcome.accepted()) {
      requests.accepted(typeUrl, response.getVersionInfo());
      send(typeUrl, response.getVersionInfo(), names, response.getNonce(), null);
      return;
    }
    String detail = settings.nackLog().nack(typeUrl, response.getVersionInfo(), outcome, settings.target());
    send(typeUrl, requests.acceptedVersion(typeUrl), names, response.getNonce(), detail);
  }

  private void send(String typeUrl, String version, List<String> names, String nonce, String errorDetail) {
    DiscoveryRequest template = requests.naming(typeUrl, names);
    answered.computeIfAbsent(typeUrl, t -> new AnsweredRequest())
        .sent(settings.cache().wireMark(typeUrl), template.getResourceNamesList());
    DiscoveryRequest.Builder request = template.toBuilder();
    request.setVersionInfo(version).setResponseNonce(nonce);
    Node node = takeNode();
    if (node != null) {
      request.setNode(node);
    }
    if (errorDetail != null) {
      request.setErrorDetail(nackStatus(errorDetail));
    }
    if (log.isDebugEnabled()) {
      log.debug(
          "ADS request to {}: type {}, version \"{}\", nonce \"{}\", {} names{}",
          settings.target(),
          typeUrl,
          version,
          nonce,
          names.size(),
          errorDetail == null ? "" : ", NACK");
    }
    sotwCall.send(request.build());
  }
}
