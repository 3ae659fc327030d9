package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;

import com.google.protobuf.Message;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.util.List;

/**
 * The resources the live-mode tests serve: listener svc, whose route splits 90/10 between payments
 * (weighted localities, an unhealthy endpoint) and payments-v2.
 */
public final class LiveResources {
  private LiveResources() {}

  /** Serves them all. */
  public static void serve(FakeAdsServer server) {
    server.setListeners(listener());
    server.setRoutes(routes());
    server.setClusters(clusters().toArray(Cluster[]::new));
    server.setEndpoints(endpoints().toArray(ClusterLoadAssignment[]::new));
  }

  public static Listener listener() {
    return XdsResources.listener("svc").rdsRouteConfig("svc-routes").build();
  }

  public static RouteConfiguration routes() {
    return RouteConfiguration.newBuilder().setName("svc-routes").addVirtualHosts(VirtualHost.newBuilder()
        .setName("vh").addDomains("svc")
        .addRoutes(Route.newBuilder().setName("split").setMatch(RouteMatch.newBuilder().setPrefix("/"))
            .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("payments")
                    .setWeight(UInt32Value.of(90)))
                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("payments-v2")
                    .setWeight(UInt32Value.of(10)))))))
        .build();
  }

  public static List<Cluster> clusters() {
    return List.of(XdsResources.cluster("payments").edsServiceName("payments-eds").build(),
        XdsResources.cluster("payments-v2").build());
  }

  public static List<ClusterLoadAssignment> endpoints() {
    return List.of(XdsResources.endpoints("payments-eds")
            .locality("us", "a", "", l -> l.weight(3).endpoint("10.0.0.3", 8080, HEALTHY, 1)
                .endpoint("10.0.0.4", 8080, HEALTHY, 1))
            .locality("us", "b", "", l -> l.weight(1).endpoint("10.0.0.5", 8080, HEALTHY)
                .endpoint("10.0.0.6", 8080, UNHEALTHY))
            .build(),
        XdsResources.endpoints("payments-v2")
            .locality("us", "a", "", l -> l.endpoint("10.0.1.1", 8080, HEALTHY)).build());
  }

  /** Everything in the order a fetch lists it: listener, routes, clusters, endpoints. */
  public static List<Message> all() {
    return List.of(listener(), routes(), clusters().get(0), clusters().get(1), endpoints().get(0), endpoints().get(1));
  }
}
