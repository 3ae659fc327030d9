package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.BoolValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import io.jxds.balancer.internal.resolver.ListenerRouteSource;
import io.jxds.balancer.internal.resolver.RouteSource;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.IstioResources;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code xds:///} channels routed by LDS and RDS end to end (gRFC A27, A28; ARCHITECTURE.md,
 * "Routing each call"): FakeAdsServer serves the listener, its route configuration, the clusters and
 * their endpoints; each cluster has one real backend of its own name on 127.0.0.1. The draws come
 * from a seeded random, so the shares are the same in every run.
 */
class XdsRoutingEndToEndTest {
  private static final String LISTENER = "service";
  private static final String ROUTES = "service-routes";
  private static final String NAME_PATH = "/" + TestBackend.NAME_METHOD.getFullMethodName();
  private static final String HOLD_PATH = "/" + TestBackend.HOLD_METHOD.getFullMethodName();

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final Random random = new Random(21);

  @Test
  void aNinetyTenSplitSendsSharesWithinTheirBound() {
    serveClusters("stable", "canary");
    serveRoutes(vhost("*", route("split", prefix("/"), weighted(Map.of("stable", 90, "canary", 10)))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    BackendCalls.awaitCalls(channel, 50, Poll.DEFAULT_TIMEOUT, w -> !w.containsKey(BackendCalls.FAILED));

    Map<String, Integer> window = BackendCalls.calls(channel, 2_000);

    // 2 000 draws of p = 0.1: a standard deviation of 13.4 calls; 3 points is 4.5 of them.
    assertThat(window).containsOnlyKeys("stable", "canary");
    assertThat(BackendCalls.share(window, "canary")).isBetween(0.07, 0.13);
  }

  @Test
  void aHeaderRouteTakesTheCallsThatCarryTheHeader() {
    serveClusters("v1", "v2");
    serveRoutes(vhost("*",
        route("to-v2", RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder()
            .setName("x-version").setExactMatch("v2")).build(), cluster("v2")),
        route("default", prefix("/"), cluster("v1"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertThat(BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("v1", 0) == 5))
        .containsOnlyKeys("v1");
    assertThat(BackendCalls.calls(withHeader(channel, "x-version", "v2"), 20)).containsExactly(Map.entry("v2", 20));
    assertThat(BackendCalls.calls(withHeader(channel, "x-version", "v3"), 20)).containsExactly(Map.entry("v1", 20));
  }

  @Test
  void aPathRouteIsCaseSensitiveUnlessItSaysOtherwise() throws Exception {
    serveClusters("exact", "folded", "rest");
    serveRoutes(vhost("*",
        // The path in lower case with case_sensitive unset: gRFC A28 and envoy say true, so no match.
        route("lower-unset", RouteMatch.newBuilder().setPath(NAME_PATH.toLowerCase()).build(), cluster("folded")),
        route("hold", RouteMatch.newBuilder().setPrefix(HOLD_PATH.toUpperCase())
            .setCaseSensitive(BoolValue.of(false)).build(), cluster("exact")),
        route("rest", prefix("/"), cluster("rest"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertThat(BackendCalls.awaitCalls(channel, 10, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("rest", 0) == 10))
        .containsOnlyKeys("rest");
    List<Status> closed = new CopyOnWriteArrayList<>();
    var held = BackendCalls.hold(channel, closed);
    TestBackend exact = bed.backends().get("exact");
    Poll.until("the held stream on the case-insensitive prefix route's cluster", () -> exact.heldStreams() == 1);
    held.cancel("done", null);
  }

  @Test
  void theVirtualHostIsChosenByAuthorityIncludingIstiodsTrailingDotDomains() {
    serveClusters("exact", "suffix", "any");
    serveRoutes(
        vhost("any", List.of("*"), route("r", prefix("/"), cluster("any"))),
        vhost("suffix", List.of("*.svc.cluster.local"), route("r", prefix("/"), cluster("suffix"))),
        // istiod 1.28+: the absolute name, with and without the port.
        vhost("exact", List.of("foo.ns.svc.cluster.local.", "foo.ns.svc.cluster.local.:8080"),
            route("r", prefix("/"), cluster("exact"))));
    ads.setListeners(listener("foo.ns.svc.cluster.local:8080"), listener("bar.ns.svc.cluster.local"),
        listener("elsewhere"));

    assertThat(firstCalls("xds:///foo.ns.svc.cluster.local:8080")).containsOnlyKeys("exact");
    assertThat(firstCalls("xds:///bar.ns.svc.cluster.local")).containsOnlyKeys("suffix");
    assertThat(firstCalls("xds:///elsewhere")).containsOnlyKeys("any");
  }

  @Test
  void noVirtualHostForTheAuthorityFailsCallsNamingTheRouteConfigurationAndAuthority() {
    serveClusters("a");
    serveRoutes(vhost("only", List.of("other.example"), route("r", prefix("/"), cluster("a"))));

    Status status = BackendCalls.failure(channel("xds:///" + LISTENER));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("xds:///service: listener service: route configuration "
        + "service-routes has no virtual host whose domains match authority service");
  }

  @Test
  void aCallNoRouteMatchesFailsNamingTheListenerAndTheVirtualHost() {
    serveClusters("a");
    serveRoutes(vhost("*", route("hold-only", RouteMatch.newBuilder().setPath(HOLD_PATH).build(), cluster("a"))));

    Status status = BackendCalls.failure(channel("xds:///" + LISTENER));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo(
        "xds:///service: listener service: virtual host vh: no route matches " + NAME_PATH);
  }

  @Test
  void aRedirectRouteFailsOnlyItsCallsNamingTheRoute() throws Exception {
    serveClusters("a");
    serveRoutes(vhost("*",
        Route.newBuilder().setName("moved").setMatch(RouteMatch.newBuilder().setPath(NAME_PATH))
            .setRedirect(RedirectAction.newBuilder().setHostRedirect("new.example")).build(),
        route("rest", prefix("/"), cluster("a"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    Status status = BackendCalls.failure(channel);

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo(
        "xds:///service: listener service: virtual host vh: route moved: its redirect action cannot be served by gRPC");
    List<Status> closed = new CopyOnWriteArrayList<>();
    var held = BackendCalls.hold(channel, closed);
    Poll.until("a held stream on the other route", () -> bed.backends().get("a").heldStreams() == 1);
    held.cancel("done", null);
  }

  @Test
  void inlineRoutesNeedNoRds() {
    serveClusters("a");
    ads.setListeners(XdsResources.listener(LISTENER).inlineRouteConfig(RouteConfiguration.newBuilder()
        .addVirtualHosts(vhost("*", route("r", prefix("/"), cluster("a")))).build()).build());

    assertThat(firstCalls("xds:///" + LISTENER)).containsOnlyKeys("a");
    assertThat(ads.streams().subscribedNames(FakeAdsServer.ROUTE_TYPE_URL)).isEmpty();
  }

  @Test
  void aNewRdsNameIsWatchedAndTheOldOneDropped() {
    serveClusters("a", "b");
    ads.setRoutes(routeConfig("first", vhost("*", route("r", prefix("/"), cluster("a")))),
        routeConfig("second", vhost("*", route("r", prefix("/"), cluster("b")))));
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig("first").build());
    ManagedChannel channel = channel("xds:///" + LISTENER);
    assertThat(BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5))
        .containsOnlyKeys("a");

    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig("second").build());

    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("b", 0) == 5);
    Poll.until(() -> "only the new route configuration watched: "
        + ads.streams().subscribedNames(FakeAdsServer.ROUTE_TYPE_URL), Poll.DEFAULT_TIMEOUT,
        () -> ads.streams().subscribedNames(FakeAdsServer.ROUTE_TYPE_URL).equals(java.util.Set.of("second")));
  }

  @Test
  void aDeletedListenerFailsCallsNamingItAndItsReturnRoutesAgain() {
    serveClusters("a");
    serveRoutes(vhost("*", route("r", prefix("/"), cluster("a"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);

    ads.setListeners();

    Poll.until("calls to fail once the listener is deleted", () -> BackendCalls.outcome(channel).isPresent());
    Status status = BackendCalls.failure(channel);
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("xds:///service: listener service does not exist");

    ads.setListeners(listener(LISTENER));
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void anRdsNameThatNeverArrivesFailsCallsNamingItOnceItsTimerFires() {
    bed.useBootstrap(ads.bootstrap().jxdsOption("client_retention", "0s").jxdsOption("resource_timeout", "1s")
        .build());
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig("missing").build());

    Status status = BackendCalls.failure(channel("xds:///" + LISTENER));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo(
        "xds:///service: listener service: route configuration missing does not exist");
  }

  @Test
  void aNackedRouteUpdateKeepsTheLastGoodRoutes() {
    serveClusters("a", "b");
    serveRoutes(vhost("*", route("r", prefix("/"), cluster("a"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);

    serveRoutes(vhost("*", route("bad", RouteMatch.newBuilder().setSafeRegex(RegexMatcher.newBuilder()
        .setRegex("(unclosed")).build(), cluster("b"))));

    ads.requests().awaitNack(FakeAdsServer.ROUTE_TYPE_URL, Poll.DEFAULT_TIMEOUT);
    assertThat(BackendCalls.calls(channel, 20)).containsExactly(Map.entry("a", 20));
  }

  @Test
  void aRouteToAClusterThatDoesNotExistFailsOnlyItsCallsNamingTheCluster() throws Exception {
    serveClusters("a");
    serveRoutes(vhost("*",
        route("ghostly", RouteMatch.newBuilder().setPath(NAME_PATH).build(), cluster("ghost")),
        route("rest", prefix("/"), cluster("a"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    Poll.until("the ghost cluster's calls to fail", () -> BackendCalls.outcome(channel).isPresent());
    Status status = BackendCalls.failure(channel);
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).startsWith("cluster ghost does not exist");
    List<Status> closed = new CopyOnWriteArrayList<>();
    var held = BackendCalls.hold(channel, closed);
    Poll.until("a held stream on the other route", () -> bed.backends().get("a").heldStreams() == 1);
    held.cancel("done", null);
  }

  @Test
  void anRdsUpdateThatRemovesAClusterFailsNoRunningCall() throws Exception {
    serveClusters("stays", "leaves");
    serveRoutes(vhost("*",
        route("hold", RouteMatch.newBuilder().setPath(HOLD_PATH).build(), cluster("leaves")),
        route("rest", prefix("/"), cluster("stays"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    List<Status> closed = new CopyOnWriteArrayList<>();
    var held = BackendCalls.hold(channel, closed);
    TestBackend leaves = bed.backends().get("leaves");
    Poll.until("the stream held on the leaving cluster", () -> leaves.heldStreams() == 1);

    serveRoutes(vhost("*", route("rest", prefix("/"), cluster("stays"))));

    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("stays", 0) == 5);
    leaves.releaseHeld(1);
    Poll.until("the held call's close", () -> closed.size() == 1);
    assertThat(closed.get(0).getCode()).isEqualTo(Status.Code.OK);
    Poll.until(() -> "the cluster's watch to end: " + ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL),
        Duration.ofSeconds(10),
        () -> !ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL).contains("leaves"));
    held.cancel("done", null);
  }

  @Test
  void aClusterAddedByAnUpdateGetsItsCallsOnceReadyWithoutFailures() {
    serveClusters("old");
    serveRoutes(vhost("*", route("r", prefix("/"), cluster("old"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("old", 0) == 5);
    serveClusters("old", "new");

    serveRoutes(vhost("*", route("r", prefix("/"), weighted(Map.of("new", 1, "old", 0)))));

    // Not wait-for-ready: a call sent to the new cluster before it was READY would fail.
    Map<String, Integer> seen = new java.util.TreeMap<>();
    Poll.until(() -> "the new cluster's calls, none failing: " + seen, Poll.DEFAULT_TIMEOUT, () -> {
      BackendCalls.calls(channel, 10).forEach((k, v) -> seen.merge(k, v, Integer::sum));
      return seen.getOrDefault("new", 0) >= 50;
    });
    assertThat(seen).doesNotContainKey(BackendCalls.FAILED);
  }

  @Test
  void aWeightOnlyUpdateOpensNoConnectionAndWatchesNoNewCluster() {
    serveClusters("a", "b");
    serveRoutes(vhost("*", route("r", prefix("/"), weighted(Map.of("a", 1, "b", 1)))));
    ManagedChannel channel = channel("xds:///" + LISTENER);
    BackendCalls.awaitCalls(channel, 40, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) > 0
        && w.getOrDefault("b", 0) > 0);
    int connections = bed.backends().get("a").connectionsOpened() + bed.backends().get("b").connectionsOpened();
    int clusterRequests = ads.requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL).size();

    serveRoutes(vhost("*", route("r", prefix("/"), weighted(Map.of("a", 1, "b", 0)))));

    BackendCalls.awaitCalls(channel, 20, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 20);
    assertThat(bed.backends().get("a").connectionsOpened() + bed.backends().get("b").connectionsOpened())
        .isEqualTo(connections);
    assertThat(ads.requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL)).hasSize(clusterRequests);
  }

  @Test
  void istiodsListenerAndRoutesSplitNinetyTenAcrossSubsetsAndFailOnlyTheRedirectedPath() {
    String host = "reviews.default.svc.cluster.local";
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String subset : List.of("v1", "v2")) {
      TestBackend backend = backend(subset);
      String name = IstioResources.subsetClusterName(host, 9080, subset);
      clusters.add(IstioResources.subsetCluster(host, 9080, subset).build());
      assignments.add(XdsResources.endpoints(name)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build());
    }
    ads.setClusters(clusters.toArray(Cluster[]::new));
    ads.setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
    ads.setRoutes(IstioResources.routeConfiguration(host, 9080)
        .redirect(HOLD_PATH, "elsewhere.example")
        .split("v1", 90, "v2", 10)
        .build());
    ads.setListeners(IstioResources.listener(host, 9080).build());
    ManagedChannel channel = channel("xds:///" + host + ":9080");
    BackendCalls.awaitCalls(channel, 50, Poll.DEFAULT_TIMEOUT, w -> !w.containsKey(BackendCalls.FAILED));

    Map<String, Integer> window = BackendCalls.calls(channel, 2_000);

    assertThat(window).containsOnlyKeys("v1", "v2");
    assertThat(BackendCalls.share(window, "v2")).isBetween(0.07, 0.13);
    List<Status> closed = new CopyOnWriteArrayList<>();
    BackendCalls.hold(channel, closed);
    Poll.until("the redirected stream's failure", () -> closed.size() == 1);
    assertThat(closed.get(0).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(closed.get(0).getDescription()).isEqualTo("xds:///" + host + ":9080: listener " + host
        + ":9080: virtual host " + host + ":9080: route routes[0]: its redirect action cannot be served by gRPC");
  }

  private Map<String, Integer> firstCalls(String target) {
    return BackendCalls.awaitCalls(channel(target), 5, Poll.DEFAULT_TIMEOUT,
        w -> !w.containsKey(BackendCalls.FAILED));
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
        .setNameResolverArg(RouteSource.FACTORY_ARG, ListenerRouteSource.factory(() -> random))
        .build());
  }

  private static Channel withHeader(Channel channel, String name, String value) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value);
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** The listener {@code service} over RDS {@code service-routes}, and those routes. */
  private void serveRoutes(VirtualHost... hosts) {
    ads.setRoutes(routeConfig(ROUTES, hosts));
    ads.setListeners(listener(LISTENER));
  }

  private static Listener listener(String name) {
    return XdsResources.listener(name).rdsRouteConfig(ROUTES).build();
  }

  private static RouteConfiguration routeConfig(String name, VirtualHost... hosts) {
    return RouteConfiguration.newBuilder().setName(name).addAllVirtualHosts(List.of(hosts)).build();
  }

  private static VirtualHost vhost(String domain, Route... routes) {
    return VirtualHost.newBuilder().setName("vh").addDomains(domain).addAllRoutes(List.of(routes)).build();
  }

  private static VirtualHost vhost(String name, List<String> domains, Route... routes) {
    return VirtualHost.newBuilder().setName(name).addAllDomains(domains).addAllRoutes(List.of(routes)).build();
  }

  private static Route route(String name, RouteMatch match, RouteAction action) {
    return Route.newBuilder().setName(name).setMatch(match).setRoute(action).build();
  }

  private static RouteMatch prefix(String prefix) {
    return RouteMatch.newBuilder().setPrefix(prefix).build();
  }

  private static RouteAction cluster(String name) {
    return RouteAction.newBuilder().setCluster(name).build();
  }

  private static RouteAction weighted(Map<String, Integer> weights) {
    WeightedCluster.Builder w = WeightedCluster.newBuilder();
    weights.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> w.addClusters(
        WeightedCluster.ClusterWeight.newBuilder().setName(e.getKey()).setWeight(UInt32Value.of(e.getValue()))));
    return RouteAction.newBuilder().setWeightedClusters(w).build();
  }

  /** Serves each cluster by CDS and EDS, each with one backend of its own name. */
  private void serveClusters(String... names) {
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String name : names) {
      TestBackend backend = backend(name);
      clusters.add(XdsResources.cluster(name).build());
      assignments.add(XdsResources.endpoints(name)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY))
          .build());
    }
    ads.setClusters(clusters.toArray(Cluster[]::new));
    ads.setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
  }

  private TestBackend backend(String name) {
    try {
      return bed.backends().get(name);
    } catch (IllegalArgumentException absent) {
      return bed.backends().start(name);
    }
  }
}
