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
      Map<String, ResourceVerdict> endpointVerdicts) {}

  private Checker() {}

  /** Checks {@code resources} in order; {@code notes} come from reading them. */
  public static Checked check(List<XdsResource> resources, List<String> notes) {
    List<ResourceVerdict> verdicts = new ArrayList<>(resources.size());
    List<String> allNotes = new ArrayList<>(notes);
    Map<String, ClusterUpdate> clusters = new LinkedHashMap<>();
    Map<String, EndpointsUpdate> endpoints = new LinkedHashMap<>();
    Map<String, ResourceVerdict> clusterVerdicts = new LinkedHashMap<>();
    Map<String, ResourceVerdict> endpointVerdicts = new LinkedHashMap<>();
    Map<String, String> seen = new HashMap<>();
    for (XdsResource resource : resources) {
      Outcome<?> outcome = decode(resource);
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
      if (resource.typeUrl().equals(ResourceTypes.CLUSTER_TYPE_URL) && !v.name().isEmpty()) {
        clusterVerdicts.put(v.name(), v);
        if (outcome.value instanceof ClusterUpdate c) {
          clusters.put(v.name(), c);
        } else {
          clusters.remove(v.name());
        }
      } else if (resource.typeUrl().equals(ResourceTypes.ENDPOINTS_TYPE_URL) && !v.name().isEmpty()) {
        endpointVerdicts.put(v.name(), v);
        if (outcome.value instanceof EndpointsUpdate e) {
          endpoints.put(v.name(), e);
        } else {
          endpoints.remove(v.name());
        }
      }
    }
    return new Checked(new CheckReport(verdicts, allNotes), clusters, endpoints, clusterVerdicts, endpointVerdicts);
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
