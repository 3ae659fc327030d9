package io.jxds.toolkit.internal;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.client.internal.cache.ResponseOutcome;
import io.jxds.toolkit.CheckReport;
import io.jxds.toolkit.IgnoredField;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.XdsResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validates resources exactly as jxds's client does: each {@code Any} is unpacked and decoded by
 * the client's own {@link ResourceType} ({@link ResourceDecoding}, then the type's decoder), and a
 * rejection becomes the line the client writes into the NACK (ARCHITECTURE.md, "ACK, NACK and flow
 * control"). What is accepted is kept, by name, for the planner: the last of a name wins, as
 * when a client applies resources in order.
 */
public final class Checker {
  /** The report, and the accepted values by name. */
  public record Checked(
      CheckReport report,
      Map<String, ClusterUpdate> clusters,
      Map<String, EndpointsUpdate> endpoints,
      Map<String, ResourceVerdict> clusterVerdicts,
      Map<String, ResourceVerdict> endpointVerdicts,
      Map<String, ListenerUpdate> listeners,
      Map<String, RouteConfigurationUpdate> routes,
      Map<String, ResourceVerdict> listenerVerdicts,
      Map<String, ResourceVerdict> routeVerdicts) {}

  private Checker() {}

  /** Checks {@code resources} in order; {@code notes} come from reading them. */
  public static Checked check(List<XdsResource> resources, List<String> notes) {
    return check(resources, List.of(), notes);
  }

  /**
   * Checks {@code resources} in order, then adds {@code clientVerdicts}: NACKs a live client reported
   * for versions the toolkit has no bytes of. Such a verdict decides a resource's plan only when no
   * good version of it is cached (a client keeps serving the last good one).
   */
  public static Checked check(List<XdsResource> resources, List<ResourceVerdict> clientVerdicts, List<String> notes) {
    List<ResourceVerdict> verdicts = new ArrayList<>(resources.size());
    List<String> allNotes = new ArrayList<>(notes);
    Map<String, ClusterUpdate> clusters = new LinkedHashMap<>();
    Map<String, EndpointsUpdate> endpoints = new LinkedHashMap<>();
    Map<String, ResourceVerdict> clusterVerdicts = new LinkedHashMap<>();
    Map<String, ResourceVerdict> endpointVerdicts = new LinkedHashMap<>();
    Map<String, ListenerUpdate> listeners = new LinkedHashMap<>();
    Map<String, RouteConfigurationUpdate> routes = new LinkedHashMap<>();
    Map<String, ResourceVerdict> listenerVerdicts = new LinkedHashMap<>();
    Map<String, ResourceVerdict> routeVerdicts = new LinkedHashMap<>();
    Map<String, String> seen = new HashMap<>();
    // Each resource is decoded on its own (pure functions of its bytes), so in parallel; the verdicts
    // are then taken in order, as a client applies them.
    List<Outcome<?>> outcomes = resources.parallelStream().<Outcome<?>>map(Checker::decode).toList();
    for (int i = 0; i < resources.size(); i++) {
      XdsResource resource = resources.get(i);
      Outcome<?> outcome = outcomes.get(i);
      ResourceVerdict v = outcome.verdict;
      verdicts.add(v);
      if (!v.name().isEmpty()) {
        String key = v.type() + " \"" + v.name() + "\"";
        String earlier = seen.put(key, v.source());
        if (earlier != null) {
          allNotes.add(key + " is given more than once (" + earlier + ", " + v.source()
              + "): the last one counts, as a client applies resources in order");
        }
      }
      if (v.name().isEmpty()) {
        continue;
      }
      switch (resource.typeUrl()) {
        case ResourceTypes.CLUSTER_TYPE_URL -> keep(v, outcome.value, ClusterUpdate.class, clusters, clusterVerdicts);
        case ResourceTypes.ENDPOINTS_TYPE_URL ->
            keep(v, outcome.value, EndpointsUpdate.class, endpoints, endpointVerdicts);
        case ResourceTypes.LISTENER_TYPE_URL ->
            keep(v, outcome.value, ListenerUpdate.class, listeners, listenerVerdicts);
        case ResourceTypes.ROUTE_CONFIGURATION_TYPE_URL ->
            keep(v, outcome.value, RouteConfigurationUpdate.class, routes, routeVerdicts);
        default -> { }
      }
    }
    for (ResourceVerdict v : clientVerdicts) {
      verdicts.add(v);
      switch (v.type()) {
        case "CDS" -> clusterVerdicts.putIfAbsent(v.name(), v);
        case "EDS" -> endpointVerdicts.putIfAbsent(v.name(), v);
        case "LDS" -> listenerVerdicts.putIfAbsent(v.name(), v);
        case "RDS" -> routeVerdicts.putIfAbsent(v.name(), v);
        default -> { }
      }
    }
    return new Checked(new CheckReport(verdicts, allNotes), clusters, endpoints, clusterVerdicts, endpointVerdicts,
        listeners, routes, listenerVerdicts, routeVerdicts);
  }

  /** The verdict by name, and the value when accepted (a NACKed later one removes an earlier good one). */
  private static <T> void keep(ResourceVerdict v, Object value, Class<T> type, Map<String, T> values,
      Map<String, ResourceVerdict> verdicts) {
    verdicts.put(v.name(), v);
    if (type.isInstance(value)) {
      values.put(v.name(), type.cast(value));
    } else {
      values.remove(v.name());
    }
  }

  /** A verdict and, when accepted, the model value. */
  private record Outcome<T>(ResourceVerdict verdict, T value) {}

  private static Outcome<?> decode(XdsResource resource) {
    ResourceType<?> type = KnownTypes.type(resource.typeUrl());
    return decode(type, resource);
  }

  private static <T> Outcome<T> decode(ResourceType<T> type, XdsResource resource) {
    String shortName = type.shortName();
    boolean validated = KnownTypes.isValidated(resource.typeUrl());
    UnpackedResource<T> unpacked;
    try {
      unpacked = ResourceDecoding.unpack(type, resource.any());
    } catch (XdsResourceException e) {
      String name = e.resourceName() == null ? "" : e.resourceName();
      return rejected(shortName, name, resource,
          ResponseOutcome.unreadable(shortName, resource.index(), e.getMessage()), validated);
    } catch (RuntimeException e) {
      // The client's line for an Any it cannot unpack at all (AppliedResponse).
      return rejected(shortName, "", resource,
          shortName + " resource index " + resource.index() + ": cannot decode: " + e, validated);
    }
    String name = unpacked.name();
    List<IgnoredField> ignored = ignoredFields(resource);
    try {
      T value = unpacked.decode();
      if (value instanceof ClusterUpdate c && c.upstreamTls().isPresent() && !c.upstreamTls().get().sni().isEmpty()) {
        ignored = new ArrayList<>(ignored);
        ignored.add(new IgnoredField("transport_socket.typed_config.sni", 1,
            "jxds cannot send a cluster's SNI through gRPC's public API (ARCHITECTURE.md, \"Upstream TLS\")"));
      }
      return new Outcome<>(new ResourceVerdict(shortName, name, resource.source(), Optional.empty(), validated,
          ignored), value);
    } catch (XdsResourceException e) {
      return new Outcome<>(new ResourceVerdict(shortName, name, resource.source(), Optional.of(e.getMessage()),
          validated, ignored), null);
    } catch (RuntimeException e) {
      String line = shortName + " resource \"" + name + "\": unexpected error: " + e;
      return new Outcome<>(new ResourceVerdict(shortName, name, resource.source(), Optional.of(line), validated,
          ignored), null);
    }
  }

  private static <T> Outcome<T> rejected(
      String shortName, String name, XdsResource resource, String line, boolean validated) {
    return new Outcome<>(
        new ResourceVerdict(shortName, name, resource.source(), Optional.of(line), validated, List.of()), null);
  }

  /** The ignored fields of a resource that unpacked (so its bytes parse). */
  private static List<IgnoredField> ignoredFields(XdsResource resource) {
    Any any = resource.any();
    try {
      if (any.getTypeUrl().equals(ResourceType.RESOURCE_WRAPPER_TYPE_URL)) {
        any = Resource.parseFrom(any.getValue()).getResource();
      }
      if (!resource.typeUrl().equals(ResourceTypes.CLUSTER_TYPE_URL)
          && !resource.typeUrl().equals(ResourceTypes.ENDPOINTS_TYPE_URL)) {
        return List.of();
      }
      List<IgnoredField> fromBytes = IgnoredFields.ofBytes(resource.typeUrl(), any.getValue());
      if (fromBytes != null) {
        return fromBytes;
      }
      Message message;
      if (resource.typeUrl().equals(ResourceTypes.CLUSTER_TYPE_URL)) {
        message = Cluster.parseFrom(any.getValue());
      } else if (resource.typeUrl().equals(ResourceTypes.ENDPOINTS_TYPE_URL)) {
        message = ClusterLoadAssignment.parseFrom(any.getValue());
      } else {
        return List.of();
      }
      return IgnoredFields.of(resource.typeUrl(), message);
    } catch (InvalidProtocolBufferException e) {
      return List.of();
    }
  }
}
