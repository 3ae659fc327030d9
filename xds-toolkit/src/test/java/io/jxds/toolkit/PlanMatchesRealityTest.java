package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proof that a plan is what happens: the same resources go to the planner and, over
 * FakeAdsServer, to a real jxds channel ({@code xds-cluster:///}) in front of real backends; the
 * RPCs each backend answers, and the ones dropped, match the planned shares within statistical
 * bounds (a window of 2 000 RPCs, each share within 3 points: more than 3 standard deviations for
 * every share here; windows are retried until one matches, for at most 10 s, so connection
 * warm-up does not count). Routes go the same way over a real {@code xds:///} channel: the request
 * plan's cluster shares against the backends (one per cluster) that answer.
 */
class PlanMatchesRealityTest {
  private static final int WINDOW = 2000;
  private static final double TOLERANCE = 0.03;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final List<Cluster> clusters = new ArrayList<>();
  private final List<ClusterLoadAssignment> assignments = new ArrayList<>();

  @Test
  void weightedLocalitiesAndEndpointsWithAnUnhealthyOne() {
    List<TestBackend> b = bed.backends().start(4);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
            .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 2))
        .locality("us", "b", "", l -> l.weight(1).endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY)
            .endpoint(b.get(3).ip(), b.get(3).port(), UNHEALTHY))
        .build(), b);
  }

  @Test
  void failedOverPriority() {
    List<TestBackend> b = bed.backends().start(4);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.priority(0).endpoint(b.get(0).ip(), b.get(0).port(), DRAINING))
        .locality("us", "b", "", l -> l.priority(1).weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
        .locality("us", "c", "", l -> l.priority(1).weight(1).endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY))
        .locality("us", "d", "", l -> l.priority(2).endpoint(b.get(3).ip(), b.get(3).port(), HEALTHY))
        .build(), b);
  }

  @Test
  void drops() {
    List<TestBackend> b = bed.backends().start(2);
    assertPlanHolds(XdsResources.cluster("payments").build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
            .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
        .drop("throttle", 20, HUNDRED)
        .drop("lb", 10, HUNDRED)
        .build(), b);
  }

  @Test
  void leastRequestWithUnequalWeights() {
    List<TestBackend> b = bed.backends().start(2);
    assertPlanHolds(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST).build(),
        XdsResources.endpoints("payments")
            .locality("us", "a", "", l -> l.endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY, 1)
                .endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY, 3))
            .build(), b);
  }

  @Test
  void ringHashWithRandomRequestHashes() {
    List<TestBackend> b = bed.backends().start(3);
    assertPlanHolds(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        XdsResources.endpoints("payments")
            .locality("us", "a", "", l -> l.weight(1).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
            .locality("us", "b", "", l -> l.weight(2).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY)
                .endpoint(b.get(2).ip(), b.get(2).port(), HEALTHY))
            .build(), b);
  }

  @Test
  void weightedClustersAndAHeaderRouteOverAnXdsChannel() {
    for (String name : List.of("stable", "canary", "v2")) {
      TestBackend b = bed.backends().start(name);
      clusters.add(XdsResources.cluster(name).build());
      assignments.add(XdsResources.endpoints(name).locality("us", "a", "", l -> l.endpoint(b.ip(), b.port(), HEALTHY))
          .build());
    }
    Listener listener = XdsResources.listener("svc").rdsRouteConfig("svc-routes").build();
    RouteConfiguration routes = RouteConfiguration.newBuilder().setName("svc-routes").addVirtualHosts(
        VirtualHost.newBuilder().setName("vh").addDomains("svc")
            .addRoutes(RoutePlanTest.route("by-header", RoutePlanTest.prefixWithHeader("/", "x-canary", "yes"),
                RoutePlanTest.cluster("v2")))
            .addRoutes(RoutePlanTest.route("split", RoutePlanTest.prefix("/"),
                RoutePlanTest.weighted("stable", 75, "canary", 25)))).build();
    List<com.google.protobuf.Message> all = new ArrayList<>(List.of(listener, routes));
    all.addAll(clusters);
    all.addAll(assignments);
    TrafficPlan plan = Snapshot.of(all).plan();
    String path = "/" + TestBackend.NAME_METHOD.getFullMethodName();
    RequestRoute plain = plan.request("svc", path, Map.of());
    RequestRoute canary = plan.request("svc", path, Map.of("x-canary", "yes"));
    assertThat(plain.share("stable")).isEqualTo(Fraction.of(3, 4));
    assertThat(canary.share("v2")).isEqualTo(Fraction.ONE);

    bed.ads().setListeners(listener);
    bed.ads().setRoutes(routes);
    bed.ads().setClusters(clusters.toArray(Cluster[]::new));
    bed.ads().setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
    ManagedChannel channel = bed.track(Grpc.newChannelBuilder("xds:///svc", InsecureChannelCredentials.create())
        .build());

    assertSplit(channel, plain);
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-canary", Metadata.ASCII_STRING_MARSHALLER), "yes");
    assertSplit(ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers)), canary);
  }

  /** Waits for a window of RPCs whose split over the backends (one per cluster) is the planned one. */
  private static void assertSplit(Channel channel, RequestRoute planned) {
    Map<String, Double> expected = new LinkedHashMap<>();
    for (RouteCluster c : planned.clusters()) {
      expected.put(c.name(), c.share().toDouble());
    }
    Map<String, Integer> window = BackendCalls.awaitCalls(channel, WINDOW, Duration.ofSeconds(10),
        split -> expected.entrySet().stream()
            .allMatch(e -> Math.abs(BackendCalls.share(split, e.getKey()) - e.getValue()) <= TOLERANCE));
    assertThat(window.keySet()).isSubsetOf(expected.keySet());
    for (Map.Entry<String, Double> e : expected.entrySet()) {
      assertThat(BackendCalls.share(window, e.getKey())).as("%s, planned %s", e.getKey(), e.getValue())
          .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(TOLERANCE));
    }
  }

  /** Plans the resources, serves the same ones, and waits for a window of RPCs that splits as planned. */
  private void assertPlanHolds(Cluster cluster, ClusterLoadAssignment endpoints, List<TestBackend> backends) {
    ClusterPlan plan = Snapshot.of(cluster, endpoints).plan().cluster(cluster.getName()).orElseThrow();
    assertThat(plan.state()).isEqualTo(ClusterPlan.State.SERVING);
    double kept = 1 - plan.dropped().toDouble();
    Map<String, Double> expected = new LinkedHashMap<>();
    for (TestBackend backend : backends) {
      String address = backend.ip() + ":" + backend.port();
      expected.put(backend.name(), plan.endpoint(address).orElseThrow().share().toDouble() * kept);
    }
    expected.put(BackendCalls.FAILED, plan.dropped().toDouble());

    bed.ads().setClusters(cluster);
    bed.ads().setEndpoints(endpoints);
    Map<String, Integer> window = BackendCalls.awaitCalls(bed.newChannel(cluster.getName()), WINDOW,
        Duration.ofSeconds(10), split -> expected.entrySet().stream()
            .allMatch(e -> Math.abs(BackendCalls.share(split, e.getKey()) - e.getValue()) <= TOLERANCE));

    for (Map.Entry<String, Double> e : expected.entrySet()) {
      assertThat(BackendCalls.share(window, e.getKey())).as("%s, planned %s", e.getKey(), e.getValue())
          .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(TOLERANCE));
    }
  }
}
