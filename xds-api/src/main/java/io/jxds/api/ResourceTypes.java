package io.jxds.api;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.jxds.api.internal.decode.ClusterDecoder;
import io.jxds.api.internal.decode.EndpointsDecoder;
import io.jxds.api.internal.decode.ListenerDecoder;
import io.jxds.api.internal.decode.RouteConfigurationDecoder;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;

/** The resource types jxds understands today. */
public final class ResourceTypes {
  /** The type URL of a Cluster (CDS) resource. */
  public static final String CLUSTER_TYPE_URL = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  /** The type URL of a ClusterLoadAssignment (EDS) resource. */
  public static final String ENDPOINTS_TYPE_URL =
      "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
  /** The type URL of a Listener (LDS) resource. */
  public static final String LISTENER_TYPE_URL = "type.googleapis.com/envoy.config.listener.v3.Listener";
  /** The type URL of a RouteConfiguration (RDS) resource. */
  public static final String ROUTE_CONFIGURATION_TYPE_URL =
      "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  /** CDS: state of the world, so a cluster missing from a response was deleted. */
  public static final ResourceType<ClusterUpdate> CLUSTER =
      ResourceType.of(CLUSTER_TYPE_URL, "CDS", true, Cluster.class, Cluster::getName, ClusterDecoder::decode);

  /** EDS: a response carries only what changed, so absence means unchanged. */
  public static final ResourceType<EndpointsUpdate> ENDPOINTS =
      ResourceType.of(
          ENDPOINTS_TYPE_URL,
          "EDS",
          false,
          ClusterLoadAssignment.class,
          ClusterLoadAssignment::getClusterName,
          EndpointsDecoder::decode)
          // A large assignment is validated from its bytes in one pass, without the tree.
          .withBytesDecoder(EndpointsDecoder::decodeInOnePass, EndpointsUpdate::clusterName);

  /** LDS: state of the world, so a listener missing from a response was deleted (gRFC A27). */
  public static final ResourceType<ListenerUpdate> LISTENER =
      ResourceType.of(LISTENER_TYPE_URL, "LDS", true, Listener.class, Listener::getName, ListenerDecoder::decode);

  /** RDS: a response carries only what changed, so absence means unchanged (gRFC A27). */
  public static final ResourceType<RouteConfigurationUpdate> ROUTE_CONFIGURATION =
      ResourceType.of(
          ROUTE_CONFIGURATION_TYPE_URL,
          "RDS",
          false,
          RouteConfiguration.class,
          RouteConfiguration::getName,
          RouteConfigurationDecoder::decode);

  private ResourceTypes() {}
}
