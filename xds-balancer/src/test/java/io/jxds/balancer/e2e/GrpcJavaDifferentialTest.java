package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * jxds's {@code xds:///} channel beside grpc-java's own (grpc-xds's resolver, on the same class
 * path) on one FakeAdsServer and the same real backends: for each configuration both send each
 * request to the same cluster (weighted splits: both within the same bounds) and ACK or NACK the
 * same resources. Where jxds deliberately differs, the test says so in its name and asserts both
 * sides (ARCHITECTURE.md, "Where jxds differs from grpc-java, and why").
 *
 * <p>The two clients have node ids of their own, so each request the fake records is told apart by
 * its stream's first request. grpc-java reads its bootstrap once per JVM: this class runs in a
 * surefire execution of its own (see the module's pom), with one fake for all its tests and a
 * listener name of its own per test.
 */
class GrpcJavaDifferentialTest {
  private static final String GRPC_JAVA_NODE = "grpc-java";
  private static final String JXDS_NODE = "jxds";
  private static final String NAME_PATH = "/" + TestBackend.NAME_METHOD.getFullMethodName();
  private static final String HOLD_PATH = "/" + TestBackend.HOLD_METHOD.getFullMethodName();

  private static final Map<String, io.envoyproxy.envoy.config.listener.v3.Listener> LISTENERS =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final Map<String, RouteConfiguration> ROUTES = new java.util.concurrent.ConcurrentHashMap<>();
  private static FakeAdsServer ads;
  private static TestBackends backends;
  private final List<ManagedChannel> channels = new ArrayList<>();

  @BeforeAll
  static void start() {
    ads = FakeAdsServer.loopback().start();
    System.setProperty("io.grpc.xds.bootstrapConfig", ads.bootstrap().nodeId(GRPC_JAVA_NODE).build());
    System.setProperty("jxds.bootstrapConfig",
        ads.bootstrap().nodeId(JXDS_NODE).jxdsOption("client_retention", "0s").build());
    backends = new TestBackends();
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String name : List.of("a", "b", "stable", "canary", "stays", "leaves")) {
      TestBackend backend = backends.start(name);
      clusters.add(XdsResources.cluster(name).build());
      assignments.add(XdsResources.endpoints(name)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build());
    }
    ads.setClusters(clusters.toArray(Cluster[]::new));
    ads.setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (backends != null) {
      backends.close();
    }
    if (ads != null) {
      ads.close();
    }
    System.clearProperty("io.grpc.xds.bootstrapConfig");
    System.clearProperty("jxds.bootstrapConfig");
  }

  @AfterEach
  void closeChannels() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void weightedSplitsLandWithinTheSameBounds() {
    serve("split", vhost("*", route(prefix("/"), weighted("stable", 90, "canary", 10))));
    for (Channel channel : pair("split")) {
      // The class's first calls: both clients connect and the JVM warms up (more than 10 s at load 20).
      BackendCalls.awaitCalls(channel, 20, Duration.ofSeconds(30), w -> !w.containsKey(BackendCalls.FAILED));

      Map<String, Integer> window = BackendCalls.calls(channel, 1_000);

      // 1 000 draws of p = 0.1: a standard deviation of 9.5 calls; 4 points is 4.2 of them.
      assertThat(window).as(channel.toString()).containsOnlyKeys("stable", "canary");
      assertThat(BackendCalls.share(window, "canary")).as(channel.toString()).isBetween(0.06, 0.14);
    }
    assertSameAcksAndNacks("split");
  }

  @Test
  void headerRoutesSendEachRequestToTheSameCluster() {
    serve("header", vhost("*",
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-version")
            .setExactMatch("v2")).build(), cluster("b")),
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-debug")
            .setPresentMatch(true).setInvertMatch(true)).build(), cluster("a"))));
    List<ManagedChannel> pair = pair("header");

    for (Map.Entry<String, String> header : List.of(Map.entry("x-version", "v2"), Map.entry("x-version", "v1"),
        Map.entry("x-debug", "1"))) {
      assertThat(outcome(withHeader(pair.get(1), header), 5)).as(header.toString())
          .isEqualTo(outcome(withHeader(pair.get(0), header), 5));
    }
    assertThat(outcome(withHeader(pair.get(1), Map.entry("x-version", "v2")), 1)).isEqualTo("b");
    assertThat(outcome(withHeader(pair.get(1), Map.entry("x-debug", "1")), 1)).isEqualTo("UNAVAILABLE");
    assertSameAcksAndNacks("header");
  }

  @Test
  void pathRoutesSendEachRequestToTheSameCluster() {
    serve("path", vhost("*",
        route(RouteMatch.newBuilder().setPath(HOLD_PATH).build(), cluster("b")),
        route(RouteMatch.newBuilder().setPrefix("/jxds.testing.Backend/").build(), cluster("a"))));
    List<ManagedChannel> pair = pair("path");

    assertThat(outcome(pair.get(1), 5)).isEqualTo(outcome(pair.get(0), 5)).isEqualTo("a");
    assertSameAcksAndNacks("path");
  }

  @Test
  void theVirtualHostIsChosenTheSameWayByAuthority() {
    serve("svc.example:8080",
        vhost("any", List.of("*"), route(prefix("/"), cluster("a"))),
        vhost("exact", List.of("svc.example:8080"), route(prefix("/"), cluster("b"))),
        vhost("suffix", List.of("*.example:8080"), route(prefix("/"), cluster("stable"))));
    List<ManagedChannel> pair = pair("svc.example:8080");

    assertThat(outcome(pair.get(1), 5)).isEqualTo(outcome(pair.get(0), 5)).isEqualTo("b");
    assertSameAcksAndNacks("svc.example:8080");
  }

  @Test
  void aCallNoRouteMatchesFailsUnavailableInBoth() {
    serve("nomatch", vhost("*", route(RouteMatch.newBuilder().setPath(HOLD_PATH).build(), cluster("a"))));
    List<ManagedChannel> pair = pair("nomatch");

    // Same code; the texts differ: jxds names the listener, the virtual host and the method.
    assertThat(outcome(pair.get(1), 3)).isEqualTo(outcome(pair.get(0), 3)).isEqualTo("UNAVAILABLE");
    assertSameAcksAndNacks("nomatch");
  }

  @Test
  void aClusterRemovedMidTrafficFailsNoRunningCallInEither() {
    serve("removal", vhost("*",
        route(RouteMatch.newBuilder().setPath(HOLD_PATH).build(), cluster("leaves")),
        route(prefix("/"), cluster("stays"))));
    List<ManagedChannel> pair = pair("removal");
    List<Status> closed = new CopyOnWriteArrayList<>();
    TestBackend leaves = backends.get("leaves");
    int heldBefore = leaves.heldStreams();
    for (ManagedChannel channel : pair) {
      BackendCalls.hold(channel, closed);
    }
    Poll.until("a held stream from each client", () -> leaves.heldStreams() == heldBefore + 2);

    serve("removal", vhost("*", route(prefix("/"), cluster("stays"))));

    for (ManagedChannel channel : pair) {
      BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("stays", 0) == 5);
    }
    leaves.releaseHeld(2);
    Poll.until("both held calls to close", () -> closed.size() == 2);
    assertThat(closed).extracting(Status::getCode).containsOnly(Status.Code.OK);
    assertSameAcksAndNacks("removal");
  }

  @Test
  void differsCaseSensitiveUnsetIsTrueInJxdsAndFalseInGrpcJava() {
    serve("case", vhost("*",
        route(RouteMatch.newBuilder().setPath(NAME_PATH.toLowerCase()).build(), cluster("b")),
        route(prefix("/"), cluster("a"))));
    List<ManagedChannel> pair = pair("case");

    // gRFC A28 and envoy: case_sensitive defaults to true, so the lower-case path does not match.
    assertThat(outcome(pair.get(0), 3)).as("grpc-java").isEqualTo("b");
    assertThat(outcome(pair.get(1), 3)).as("jxds").isEqualTo("a");
    assertSameAcksAndNacks("case");
  }

  @Test
  void differsARangeExcludesItsEndInJxdsAndIncludesItInGrpcJava() {
    serve("range", vhost("*",
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-n")
            .setRangeMatch(Int64Range.newBuilder().setStart(10).setEnd(20))).build(), cluster("b")),
        route(prefix("/"), cluster("a"))));
    List<ManagedChannel> pair = pair("range");

    // envoy.type.v3.Int64Range: [start, end), the end excluded.
    assertThat(outcome(withHeader(pair.get(0), Map.entry("x-n", "20")), 3)).as("grpc-java").isEqualTo("b");
    assertThat(outcome(withHeader(pair.get(1), Map.entry("x-n", "20")), 3)).as("jxds").isEqualTo("a");
    assertThat(outcome(withHeader(pair.get(1), Map.entry("x-n", "19")), 1)).isEqualTo(
        outcome(withHeader(pair.get(0), Map.entry("x-n", "19")), 1)).isEqualTo("b");
    assertSameAcksAndNacks("range");
  }

  @Test
  void differsARedirectRouteIsNackedByGrpcJavaAndFailsOnlyItsCallsInJxds() {
    serve("redirect", vhost("*",
        Route.newBuilder().setName("moved").setMatch(RouteMatch.newBuilder().setPath(HOLD_PATH))
            .setRedirect(RedirectAction.newBuilder().setHostRedirect("new.example")).build(),
        route(prefix("/"), cluster("a"))));
    List<ManagedChannel> pair = pair("redirect");

    // grpc-java NACKs the whole route configuration, so its channel has no routes at all.
    assertThat(outcome(pair.get(1), 3)).as("jxds").isEqualTo("a");
    assertThat(outcome(pair.get(0), 1)).as("grpc-java").isEqualTo("UNAVAILABLE");
    Poll.until("both clients' verdicts on redirect-routes", () -> verdicts(FakeAdsServer.ROUTE_TYPE_URL).values()
        .stream().allMatch(v -> v.containsKey("redirect-routes")));
    Map<String, Map<String, String>> verdicts = verdicts(FakeAdsServer.ROUTE_TYPE_URL);
    assertThat(verdicts.get(GRPC_JAVA_NODE)).containsEntry("redirect-routes", "NACK");
    assertThat(verdicts.get(JXDS_NODE)).containsEntry("redirect-routes", "ACK");
  }

  @Test
  @Timeout(60)
  void differsATrailingDotDomainPanicsGrpcJavasChannelAndJxdsRoutesByIt() {
    // istiod 1.28+ adds each host's FQDN with a trailing dot to its virtual host's domains: a
    // trailing dot names the same host. grpc-java's matchHostName throws IllegalArgumentException
    // ("Invalid pattern/domain name") on it in the channel's SynchronizationContext, and the
    // channel panics: every call fails INTERNAL. The calls have deadlines and the test a timeout,
    // so a grpc-java that hung instead would fail this test, not hang the build.
    String host = "dot.ns.svc.cluster.local";
    serve(host,
        vhost("other", List.of("other.example"), route(prefix("/"), cluster("a"))),
        vhost("istio", List.of(host + "."), route(prefix("/"), cluster("b"))));
    List<ManagedChannel> pair = pair(host);

    assertThat(outcome(pair.get(1), 5)).as("jxds").isEqualTo("b");
    StatusRuntimeException panic = org.assertj.core.api.Assertions.catchThrowableOfType(
        StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(pair.get(0), TestBackend.NAME_METHOD,
            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]));
    assertThat(panic).as("grpc-java's call").isNotNull();
    assertThat(panic.getStatus().getCode()).as("grpc-java: %s", panic.getStatus()).isEqualTo(Status.Code.INTERNAL);
    assertThat(panic.getStatus().getDescription()).startsWith("Panic!");
    assertThat(panic.getStatus().getCause()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid pattern/domain name");
    assertThat(outcome(pair.get(0), 3)).as("grpc-java's channel stays panicked").isEqualTo("INTERNAL");
    // Both clients accept the resources: grpc-java throws only when its resolver matches domains.
    assertSameAcksAndNacks(host);
  }

  // ------------------------------------------------------------------------------------------

  /** grpc-java's channel first, jxds's second, both for {@code xds:///LISTENER}. */
  @SuppressWarnings("deprecation")
  private List<ManagedChannel> pair(String listener) {
    ManagedChannel grpcJava = NettyChannelBuilder.forTarget("xds:///" + listener, InsecureChannelCredentials.create())
        .nameResolverFactory(new io.grpc.xds.XdsNameResolverProvider())
        .build();
    ManagedChannel jxds = Grpc.newChannelBuilder("xds:///" + listener, InsecureChannelCredentials.create()).build();
    channels.add(grpcJava);
    channels.add(jxds);
    return List.of(grpcJava, jxds);
  }

  /**
   * The outcome of {@code n} calls, one after another: the backend's name if all had the same, else
   * the counts; a failure is its status code. Calls made before the channel has routes wait for
   * them (both channels buffer calls until their first resolution result).
   */
  private static String outcome(Channel channel, int n) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      String key;
      try {
        key = new String(ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD,
            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]), StandardCharsets.UTF_8);
      } catch (StatusRuntimeException e) {
        key = e.getStatus().getCode().name();
      }
      counts.merge(key, 1, Integer::sum);
    }
    return counts.size() == 1 ? counts.keySet().iterator().next() : counts.toString();
  }

  private static Channel withHeader(Channel channel, Map.Entry<String, String> header) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(header.getKey(), Metadata.ASCII_STRING_MARSHALLER), header.getValue());
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** Both clients' last verdict (ACK or NACK) on the test's listener and route configuration is the same. */
  private static void assertSameAcksAndNacks(String listener) {
    Poll.until("both clients' verdicts on " + listener, () -> verdicts(FakeAdsServer.ROUTE_TYPE_URL).values().stream()
        .allMatch(v -> v.containsKey(listener + "-routes")));
    Map<String, Map<String, String>> lds = verdicts(FakeAdsServer.LISTENER_TYPE_URL);
    Map<String, Map<String, String>> rds = verdicts(FakeAdsServer.ROUTE_TYPE_URL);
    assertThat(lds.get(JXDS_NODE).get(listener)).as("LDS " + listener).isEqualTo("ACK")
        .isEqualTo(lds.get(GRPC_JAVA_NODE).get(listener));
    assertThat(rds.get(JXDS_NODE).get(listener + "-routes")).as("RDS " + listener + "-routes")
        .isEqualTo(rds.get(GRPC_JAVA_NODE).get(listener + "-routes"));
  }

  /** By node id, the last verdict (ACK or NACK) on each version_info of {@code typeUrl}. */
  private static Map<String, Map<String, String>> verdicts(String typeUrl) {
    Map<Long, String> nodes = new HashMap<>();
    for (RecordedRequest r : ads.requests().all()) {
      if (r.raw().hasNode() && !r.raw().getNode().getId().isEmpty()) {
        nodes.putIfAbsent(r.streamId(), r.raw().getNode().getId());
      }
    }
    Map<String, Map<String, String>> verdicts = new HashMap<>();
    verdicts.put(GRPC_JAVA_NODE, new HashMap<>());
    verdicts.put(JXDS_NODE, new HashMap<>());
    for (RecordedRequest r : ads.requests().ofType(typeUrl)) {
      String node = nodes.get(r.streamId());
      if (node == null || r.kind() != RecordedRequest.Kind.ACK && r.kind() != RecordedRequest.Kind.NACK) {
        continue;
      }
      for (String name : r.resourceNames()) {
        verdicts.get(node).put(name, r.kind().name());
      }
    }
    return verdicts;
  }

  /** The listener over RDS {@code LISTENER-routes}, and those routes, beside every other test's. */
  private static void serve(String listener, VirtualHost... hosts) {
    LISTENERS.put(listener, XdsResources.listener(listener).rdsRouteConfig(listener + "-routes").build());
    ROUTES.put(listener, RouteConfiguration.newBuilder().setName(listener + "-routes")
        .addAllVirtualHosts(List.of(hosts)).build());
    ads.setRoutes(ROUTES.values().toArray(RouteConfiguration[]::new));
    ads.setListeners(LISTENERS.values().toArray(io.envoyproxy.envoy.config.listener.v3.Listener[]::new));
  }

  private static VirtualHost vhost(String domain, Route... routes) {
    return vhost("vh", List.of(domain), routes);
  }

  private static VirtualHost vhost(String name, List<String> domains, Route... routes) {
    return VirtualHost.newBuilder().setName(name).addAllDomains(domains).addAllRoutes(List.of(routes)).build();
  }

  private static Route route(RouteMatch match, RouteAction action) {
    return Route.newBuilder().setMatch(match).setRoute(action).build();
  }

  private static RouteMatch prefix(String prefix) {
    return RouteMatch.newBuilder().setPrefix(prefix).build();
  }

  private static RouteAction cluster(String name) {
    return RouteAction.newBuilder().setCluster(name).build();
  }

  private static RouteAction weighted(String first, int w1, String second, int w2) {
    return RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(first).setWeight(UInt32Value.of(w1)))
        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(second).setWeight(UInt32Value.of(w2))))
        .build();
  }
}
