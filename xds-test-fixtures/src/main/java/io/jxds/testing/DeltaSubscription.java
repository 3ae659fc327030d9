package io.jxds.testing;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One delta ADS stream's state for one type URL: the subscribed names, the version of each
 * resource the server believes the client holds, the last nonce sent; classifies and applies that
 * stream's requests and says what to send it. Not thread-safe: guarded by the server's {@link
 * Monitor}.
 */
final class DeltaSubscription extends Subscription {
  private final Set<String> names = new LinkedHashSet<>();
  /** Name to the version the client holds: sent to it, or named in initial_resource_versions. */
  private final Map<String, String> clientVersions = new HashMap<>();
  /** The system_version_info of the last response sent. */
  String lastVersionSent = "";

  @Override
  Set<String> names() {
    return names;
  }

  /** Classifies a request against what was sent for its type on this stream. */
  RecordedRequest.Kind classify(DeltaDiscoveryRequest request) {
    RecordedRequest.@Nullable Kind byNonce = classifyNonce(request.getResponseNonce(), request.hasErrorDetail());
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
  @Nullable DeltaDiscoveryResponse apply(ServedType type, DeltaDiscoveryRequest request, RecordedRequest.Kind kind) {
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
    noteAnswer(kind, lastVersionSent);
    if (kind == RecordedRequest.Kind.STALE || !(first || added)) {
      return null;
    }
    return responseFor(type);
  }

  /**
   * The subscribed resources whose version the client does not hold, and in {@code
   * removed_resources} the subscribed names the client holds that no longer exist; null when there
   * is neither. What it returns counts as held by the client from now on.
   */
  @Override
  @Nullable DeltaDiscoveryResponse responseFor(ServedType type) {
    if (type.version == null) {
      return null;
    }
    DeltaDiscoveryResponse.Builder response =
        DeltaDiscoveryResponse.newBuilder().setSystemVersionInfo(type.version).setTypeUrl(type.typeUrl);
    for (String name : names) {
      Any resource = type.resources.get(name);
      String held = clientVersions.get(name);
      if (resource != null) {
        // Every served resource has a version (ServedType.changedFrom).
        String current = Objects.requireNonNull(type.resourceVersions.get(name), name);
        if (!current.equals(held)) {
          response.addResources(Resource.newBuilder().setName(name).setVersion(current).setResource(resource));
          clientVersions.put(name, current);
        }
      } else if (held != null) {
        response.addRemovedResources(name);
        clientVersions.remove(name);
      }
    }
    if (response.getResourcesCount() == 0 && response.getRemovedResourcesCount() == 0) {
      return null;
    }
    return response.build();
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
