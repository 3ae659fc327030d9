package io.jxds.client.internal.stream;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the state-of-the-world requests to one server share across its streams: per type, the
 * version of the last response the client accepted (a new stream's requests carry it, so a server
 * that kept its state need not resend what the client has), and a request holding just the type
 * and the names on the wire, rebuilt only when the names change: every ACK of a 10 000-cluster
 * response then shares its (immutable) name list instead of copying ten thousand strings.
 */
final class SotwRequests {
  private final Map<String, String> acceptedVersions = new HashMap<>();
  private final Map<String, DiscoveryRequest> namesTemplates = new HashMap<>();

  /** The version of the type's last accepted response; empty before one. */
  String acceptedVersion(String typeUrl) {
    return acceptedVersions.getOrDefault(typeUrl, "");
  }

  void accepted(String typeUrl, String version) {
    acceptedVersions.put(typeUrl, version);
  }

  /** A name of the type went on or off the wire: the next request lists the names anew. */
  void namesChanged(String typeUrl) {
    namesTemplates.remove(typeUrl);
  }

  /** Names went on or off the wire unheard (the server was idle): every type's names anew. */
  void forgetNames() {
    namesTemplates.clear();
  }

  /**
   * A request of the type naming {@code names} (the names on the wire, sorted): the same instance,
   * and the same name list, until the names change.
   */
  DiscoveryRequest naming(String typeUrl, List<String> names) {
    DiscoveryRequest template = namesTemplates.get(typeUrl);
    if (template == null || template.getResourceNamesCount() != names.size()) {
      template = DiscoveryRequest.newBuilder().setTypeUrl(typeUrl).addAllResourceNames(names).build();
      namesTemplates.put(typeUrl, template);
    }
    return template;
  }
}
