package io.jxds.toolkit.internal;

import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import java.util.Map;

/**
 * The resource types the toolkit reads, by type URL, each with the descriptor jxds's client decodes
 * it with ({@link ResourceTypes}): the verdicts are the client's for all four.
 */
public final class KnownTypes {
  public static final String LISTENER_TYPE_URL = ResourceTypes.LISTENER_TYPE_URL;
  public static final String ROUTE_TYPE_URL = ResourceTypes.ROUTE_CONFIGURATION_TYPE_URL;

  private static final Map<String, ResourceType<?>> TYPES = Map.of(
      ResourceTypes.CLUSTER_TYPE_URL, ResourceTypes.CLUSTER,
      ResourceTypes.ENDPOINTS_TYPE_URL, ResourceTypes.ENDPOINTS,
      LISTENER_TYPE_URL, ResourceTypes.LISTENER,
      ROUTE_TYPE_URL, ResourceTypes.ROUTE_CONFIGURATION);

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

  /** Whether jxds validates this type (its verdicts are the client's): every type the toolkit reads. */
  public static boolean isValidated(String typeUrl) {
    return isKnown(typeUrl);
  }

  /** The list for messages: what the toolkit reads. */
  public static String known() {
    return "Cluster, ClusterLoadAssignment, Listener, RouteConfiguration";
  }
}
