package io.jxds.toolkit.internal;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import java.util.Map;
import java.util.Set;

/**
 * The resource types the toolkit reads, by type URL, each with the descriptor the client decodes
 * it with. Listener and RouteConfiguration are read (a config dump carries them) but not validated
 * until jxds decodes them: their descriptors here only unpack, through the same path (type URL
 * check, {@code Resource} wrapper, parse errors); the client's own descriptors replace them then.
 */
public final class KnownTypes {
  public static final String LISTENER_TYPE_URL = "type.googleapis.com/envoy.config.listener.v3.Listener";
  public static final String ROUTE_TYPE_URL = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  private static final ResourceType<Message> LISTENER =
      ResourceType.of(LISTENER_TYPE_URL, "LDS", true, Listener.class, Listener::getName, l -> l);
  private static final ResourceType<Message> ROUTE =
      ResourceType.of(ROUTE_TYPE_URL, "RDS", false, RouteConfiguration.class, RouteConfiguration::getName, r -> r);

  private static final Map<String, ResourceType<?>> TYPES = Map.of(
      ResourceTypes.CLUSTER_TYPE_URL, ResourceTypes.CLUSTER,
      ResourceTypes.ENDPOINTS_TYPE_URL, ResourceTypes.ENDPOINTS,
      LISTENER_TYPE_URL, LISTENER,
      ROUTE_TYPE_URL, ROUTE);

  private static final Set<String> VALIDATED = Set.of(ResourceTypes.CLUSTER_TYPE_URL, ResourceTypes.ENDPOINTS_TYPE_URL);

  private KnownTypes() {}

  /** Whether the toolkit reads resources of this type. */
  public static boolean isKnown(String typeUrl) {
    return TYPES.containsKey(typeUrl);
  }

  /** The descriptor of a known type. */
  public static ResourceType<?> type(String typeUrl) {
    ResourceType<?> t = TYPES.get(typeUrl);
    if (t == null) {
      throw new IllegalArgumentException("unknown type " + typeUrl);
    }
    return t;
  }

  /** CDS, EDS, LDS or RDS; the type URL itself for another. */
  public static String shortName(String typeUrl) {
    ResourceType<?> t = TYPES.get(typeUrl);
    return t == null ? typeUrl : t.shortName();
  }

  /** Whether jxds validates this type (its verdicts are the client's). */
  public static boolean isValidated(String typeUrl) {
    return VALIDATED.contains(typeUrl);
  }

  /** The list for messages: what the toolkit reads. */
  public static String known() {
    return "Cluster, ClusterLoadAssignment, Listener, RouteConfiguration";
  }
}
