package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import io.jxds.testing.ClusterBuilder;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's control plane: the embedded {@link FakeAdsServer} and the state it serves: the
 * listener the channel's {@code xds:///CLUSTER} target names, its route configuration over RDS
 * (one virtual host; a route to the cluster, later split with a canary cluster, and a header route
 * ahead of it; a retry policy; at last one route hashing on a header), the cluster and its canary
 * (CDS; outlier detection, ring hash), and their endpoints (locality weights, endpoint weights, drop
 * percentage: EDS). Every setter pushes the changed resource at once, as a real
 * control plane would on a config change.
 */
final class DemoControlPlane {
  /**
   * One locality of the demo.
   *
   * @param region the locality's {@code region}
   * @param zone the locality's {@code zone}; the table shows {@code zone-ZONE}
   * @param priority 0 is the highest
   * @param backends names of the {@link DemoBackends} in it
   */
  record LocalitySpec(String region, String zone, int priority, List<String> backends) {
    String label() {
      return "zone-" + zone;
    }
  }

  /** Three localities at priority 0, one at priority 1; two backends each. */
  static final List<LocalitySpec> LAYOUT = List.of(
      new LocalitySpec("us-east", "a", 0, List.of("a1", "a2")),
      new LocalitySpec("us-east", "b", 0, List.of("b1", "b2")),
      new LocalitySpec("us-east", "c", 0, List.of("c1", "c2")),
      new LocalitySpec("us-west", "d", 1, List.of("d1", "d2")));
  /** The canary cluster's one locality: two backends of its own. */
  static final LocalitySpec CANARY_LAYOUT = new LocalitySpec("us-east", "a", 0, List.of("k1", "k2"));
  /** The canary cluster's column in the table. */
  static final String CANARY_LABEL = "canary";
  /** The header whose calls the header route sends to the canary. */
  static final String CANARY_HEADER = "x-canary";
  static final String CANARY_HEADER_VALUE = "true";
  /** {@code num_retries} of the retry policy ({@link #setRetries}). */
  static final int RETRIES = 3;

  private final FakeAdsServer ads;
  private final String cluster;
  private final DemoBackends backends;
  private final Map<String, Long> localityWeights = new HashMap<>();
  private final Map<String, Long> endpointWeights = new HashMap<>();
  private int dropPercent;
  private int canaryPercent;
  private boolean headerRoute;
  private boolean retries;
  private OutlierDetection outlierDetection; // on the cluster, or null
  private boolean sticky;

  /**
   * @param cluster the cluster's name, also the listener's (the channel's target is {@code
   *     xds:///CLUSTER}); the canary cluster is {@code CLUSTER-canary}
   */
  DemoControlPlane(FakeAdsServer ads, String cluster, DemoBackends backends) {
    this.ads = ads;
    this.cluster = cluster;
    this.backends = backends;
  }

  /** The cluster's name, and the listener's. */
  String cluster() {
    return cluster;
  }

  /** The canary cluster's name. */
  String canaryCluster() {
    return cluster + "-canary";
  }

  /** The route configuration's name (RDS). */
  String routeConfiguration() {
    return cluster + "-routes";
  }

  /**
   * Which backend address is in which locality: the cluster's four, then the canary's (which the
   * table, four columns wide, does not show until {@link #routingTopology()}).
   */
  Topology topology() {
    List<LocalityInfo> localities = new ArrayList<>();
    LAYOUT.forEach(spec -> localities.add(info(spec.label(), spec)));
    localities.add(info(CANARY_LABEL, CANARY_LAYOUT));
    return new Topology(localities);
  }

  /**
   * The same, with the canary shown in place of the standby priority (still counted: an RPC it
   * answers is no unknown backend's).
   */
  Topology routingTopology() {
    List<LocalityInfo> localities = new ArrayList<>(topology().localities());
    LocalityInfo canary = localities.remove(localities.size() - 1);
    localities.add(LAYOUT.size() - 1, canary); // before the last, the standby priority
    return new Topology(localities);
  }

  private LocalityInfo info(String label, LocalitySpec spec) {
    return new LocalityInfo(label, spec.priority(),
        spec.backends().stream().map(b -> new EndpointInfo(b, backends.address(b))).toList());
  }

  /** Serves everything: the listener (LDS), its routes (RDS), both clusters (CDS), their endpoints (EDS). */
  synchronized void publish() {
    ads.setListeners(XdsResources.listener(cluster).rdsRouteConfig(routeConfiguration()).build());
    pushRoutes();
    restoreCluster();
    pushEndpoints();
  }

  /** Serves both clusters (CDS). */
  synchronized void restoreCluster() {
    ClusterBuilder main = XdsResources.cluster(cluster);
    ClusterBuilder canary = XdsResources.cluster(canaryCluster());
    if (outlierDetection != null) {
      main.outlierDetection(outlierDetection);
    }
    if (sticky) {
      main.lbPolicy(Cluster.LbPolicy.RING_HASH);
      canary.lbPolicy(Cluster.LbPolicy.RING_HASH);
    }
    ads.setClusters(main.build(), canary.build());
  }

  /**
   * RDS: the route to the cluster (the default route) gets a {@code retry_policy} (gRFC A44):
   * UNAVAILABLE retried up to {@value #RETRIES} times, 10 ms back-off; {@code false} lifts it.
   */
  synchronized void setRetries(boolean on) {
    retries = on;
    pushRoutes();
  }

  /**
   * CDS: the cluster gets {@code outlier_detection} (gRFC A50), failure percentage only: every
   * {@code interval}, an endpoint with at least 3 calls of which more than half failed is ejected
   * for {@code ejection} (at most half of the endpoints at once; two endpoints with 3 calls are
   * enough to judge, so that a slow machine's low rate still ejects).
   */
  synchronized void setOutlierDetection(Duration interval, Duration ejection) {
    outlierDetection = XdsResources.cluster(cluster)
        .failurePercentageEjection(interval, ejection, 50, 2, 3, 50).build().getOutlierDetection();
    restoreCluster();
  }

  /**
   * CDS and RDS: both clusters balance by {@code RING_HASH}, and both routes get a {@code
   * hash_policy} on the {@link TrafficGenerator#USER_HEADER} header (gRFC A42); the default route
   * sends every call to the cluster (the canary split is lifted, so that a user's calls do not
   * alternate between two clusters), the header route still to the canary.
   */
  synchronized void stickyByUser() {
    sticky = true;
    restoreCluster();
    pushRoutes();
  }

  /** Removes the Cluster, not its canary: state-of-the-world CDS without it means deleted. */
  synchronized void removeCluster() {
    ads.setClusters(XdsResources.cluster(canaryCluster()).build());
  }

  /** RDS: route {@code /} splits {@code percent} % to the canary cluster and the rest to the cluster. */
  synchronized void setCanaryPercent(int percent) {
    canaryPercent = percent;
    pushRoutes();
  }

  /** RDS: a route ahead of the split sends calls carrying {@link #CANARY_HEADER} to the canary. */
  synchronized void addHeaderRoute() {
    headerRoute = true;
    pushRoutes();
  }

  /** Sets each locality's {@code load_balancing_weight}, by label ({@code zone-a}). */
  synchronized void setLocalityWeights(Map<String, Long> weights) {
    localityWeights.putAll(weights);
    pushEndpoints();
  }

  /** Sets one endpoint's {@code load_balancing_weight}, by backend name. */
  synchronized void setEndpointWeight(String backend, long weight) {
    endpointWeights.put(backend, weight);
    pushEndpoints();
  }

  /** Sets {@code policy.drop_overloads} to one category dropping {@code percent} %. */
  synchronized void setDropPercent(int percent) {
    dropPercent = percent;
    pushEndpoints();
  }

  private void pushRoutes() {
    VirtualHost.Builder host = VirtualHost.newBuilder().setName(cluster).addDomains(cluster);
    if (headerRoute) {
      host.addRoutes(Route.newBuilder().setName("canary-header")
          .setMatch(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder()
              .setName(CANARY_HEADER).setExactMatch(CANARY_HEADER_VALUE)))
          .setRoute(hashed(RouteAction.newBuilder().setCluster(canaryCluster()))));
    }
    RouteAction.Builder action = RouteAction.newBuilder();
    if (canaryPercent == 0 || sticky) {
      action.setCluster(cluster);
    } else {
      action.setWeightedClusters(WeightedCluster.newBuilder()
          .addClusters(weight(cluster, 100 - canaryPercent))
          .addClusters(weight(canaryCluster(), canaryPercent)));
    }
    if (retries) {
      action.setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable").setNumRetries(UInt32Value.of(RETRIES))
          .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(
              com.google.protobuf.Duration.newBuilder().setNanos(10_000_000))));
    }
    host.addRoutes(Route.newBuilder().setName("default").setMatch(RouteMatch.newBuilder().setPrefix("/"))
        .setRoute(hashed(action)));
    ads.setRoutes(XdsResources.route(routeConfiguration()).virtualHost(host.build()).build());
  }

  /** With {@link #stickyByUser()}: the action hashes on the user header. */
  private RouteAction.Builder hashed(RouteAction.Builder action) {
    return !sticky ? action : action.addHashPolicy(RouteAction.HashPolicy.newBuilder()
        .setHeader(RouteAction.HashPolicy.Header.newBuilder().setHeaderName(TrafficGenerator.USER_HEADER)));
  }

  private static WeightedCluster.ClusterWeight.Builder weight(String name, int weight) {
    return WeightedCluster.ClusterWeight.newBuilder().setName(name).setWeight(UInt32Value.of(weight));
  }

  private void pushEndpoints() {
    ads.setEndpoints(endpoints(cluster, LAYOUT, dropPercent),
        endpoints(canaryCluster(), List.of(CANARY_LAYOUT), 0));
  }

  private ClusterLoadAssignment endpoints(String name, List<LocalitySpec> layout, int dropPercent) {
    EndpointsBuilder eds = XdsResources.endpoints(name);
    for (LocalitySpec spec : layout) {
      eds.locality(spec.region(), spec.zone(), "", l -> {
        l.priority(spec.priority()).weight(localityWeights.getOrDefault(spec.label(), 1L));
        for (String b : spec.backends()) {
          l.endpoint("127.0.0.1", backends.port(b), HEALTHY, endpointWeights.getOrDefault(b, 1L));
        }
      });
    }
    if (dropPercent > 0) {
      eds.drop("throttle", dropPercent, FractionalPercent.DenominatorType.HUNDRED);
    }
    return eds.build();
  }
}
