package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.FAILED;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code xds_cluster} policy end to end: FakeAdsServer on a loopback port, real backends on
 * 127.0.0.1, the real jxds client from a bootstrap in the system property
 * {@code jxds.bootstrapConfig}, and a channel built from {@code xds-cluster:///payments} and
 * nothing else.
 */
class XdsClusterEndToEndTest {
  private static final String BOOTSTRAP_PROPERTY = XdsTestBed.BOOTSTRAP_PROPERTY;
  private static final int RPCS = 20_000;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();

  @Test
  void rpcsSpreadByLocalityTimesEndpointWeight() throws Exception {
    TestBackend a1 = backends.start("a1");
    TestBackend a2 = backends.start("a2");
    TestBackend b1 = backends.start("b1");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1)
            .endpoint("127.0.0.1", a1.port(), HEALTHY, 1)
            .endpoint("127.0.0.1", a2.port(), HEALTHY, 3))
        .locality("r", "b", "", l -> l.priority(0).weight(3)
            .endpoint("127.0.0.1", b1.port(), HEALTHY, 1))
        .build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 40, Duration.ofSeconds(10), w -> w.keySet().containsAll(List.of("a1", "a2", "b1")));

    Map<String, Integer> split = calls(channel, RPCS);

    // a: 1/4 of traffic, split 1:3 inside; b: 3/4.
    assertShare(split, "a1", 6.25);
    assertShare(split, "a2", 18.75);
    assertShare(split, "b1", 75.0);
    assertThat(split).doesNotContainKey(FAILED);
  }

  @Test
  void weightChangeShiftsTrafficWithoutNewConnections() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(twoLocalities(a, 1, b, 1).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 20, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 10 && w.getOrDefault("b", 0) == 10);
    int opened = a.connectionsOpened() + b.connectionsOpened();

    ads.setEndpoints(twoLocalities(a, 3, b, 1).build());

    Map<String, Integer> shifted = awaitCalls(channel, 400, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 300);
    assertThat(shifted.get("b")).isEqualTo(100);
    assertThat(a.connectionsOpened() + b.connectionsOpened()).isEqualTo(opened);
  }

  @Test
  void removedEndpointStopsGettingRpcsAndItsInFlightRpcFinishes() throws Exception {
    TestBackend x = backends.start("x");
    TestBackend y = backends.start("y");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1)
            .endpoint("127.0.0.1", x.port(), HEALTHY)
            .endpoint("127.0.0.1", y.port(), HEALTHY))
        .build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 10, Duration.ofSeconds(10), w -> w.containsKey("x") && w.containsKey("y"));
    List<Status> closed = new CopyOnWriteArrayList<>();
    List<ClientCall<byte[], byte[]>> held = new ArrayList<>();
    // Round robin: one of the first two streams lands on x.
    Poll.until(() -> "a stream held on x after " + held.size() + " tries", Duration.ofSeconds(10), () -> {
      if (x.heldStreams() > 0) {
        return true;
      }
      held.add(BackendCalls.hold(channel, closed));
      return false;
    });

    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", y.port(), HEALTHY))
        .build());

    awaitCalls(channel, 20, Duration.ofSeconds(10), w -> w.getOrDefault("y", 0) == 20);
    x.releaseHeld(1);
    y.releaseHeld(y.heldStreams());
    Poll.until("closed reaches " + held.size(), () -> closed.size() >= held.size());
    assertThat(closed).allMatch(Status::isOk);
    // grpc-java closes a removed subchannel's connection a few seconds later.
    Poll.until("x's connection closes", Duration.ofSeconds(15), () -> x.connectionsClosed() == x.connectionsOpened());
  }

  @Test
  void priorityZeroDownMovesRpcsToPriorityOneAndBack() throws Exception {
    TestBackend p0 = backends.start("p0");
    TestBackend p1 = backends.start("p1");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", p0.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(1).weight(1).endpoint("127.0.0.1", p1.port(), HEALTHY))
        .build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 10, Duration.ofSeconds(10), w -> w.getOrDefault("p0", 0) == 10);

    backends.stop("p0");
    Map<String, Integer> failover = calls(channel, 50);
    assertThat(failover.getOrDefault(FAILED, 0)).isLessThanOrEqualTo(1);
    assertThat(failover.getOrDefault("p1", 0)).isGreaterThanOrEqualTo(49);

    backends.restart("p0");
    channel.resetConnectBackoff();
    awaitCalls(channel, 10, Duration.ofSeconds(10), w -> w.getOrDefault("p0", 0) == 10);
  }

  @Test
  void deletedClusterFailsUnavailableNamingItAndRecreatedServesAgain() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    ads.setClusters();

    Poll.until("RPCs fail after the deletion", Duration.ofSeconds(10), () -> BackendCalls.call(channel).equals(FAILED));
    Status status = BackendCalls.failure(channel);
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).contains("cluster payments does not exist");

    ads.setClusters(XdsResources.cluster("payments").build());
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void localitiesOfWeightZeroAreNamedWhenTheClusterHasNoUsableEndpoints() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(0).endpoint("127.0.0.1", a.port(), HEALTHY))
        .locality("r", "b", "", l -> l.noWeight().endpoint("127.0.0.1", a.port(), HEALTHY))
        .build());

    Status status = BackendCalls.failure(channel());

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("cluster payments has no usable endpoints: "
        + "localities with load_balancing_weight unset or 0 take no traffic: "
        + "{region=\"r\", zone=\"a\", sub_zone=\"\"}, {region=\"r\", zone=\"b\", sub_zone=\"\"}");
  }

  @Test
  void endpointWeightZeroIsNackedNamingTheFieldAndTheLastGoodAssignmentServes() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(1).endpoint("127.0.0.1", a.port(), HEALTHY, 0))
        .build());

    assertThat(ads.requests().awaitNack(FakeAdsServer.ENDPOINTS_TYPE_URL, Duration.ofSeconds(10)).errorMessage())
        .contains("ClusterLoadAssignment \"payments\": endpoints[0].lb_endpoints[0].load_balancing_weight must be "
            + "at least 1, got 0");
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void dropOverloadDropsItsShare() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).drop("throttle", 25, FractionalPercent.DenominatorType.HUNDRED).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 20, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) > 0);

    Map<String, Integer> split = calls(channel, RPCS);

    assertShare(split, FAILED, 25.0);
    List<Status> failures = new ArrayList<>();
    for (int i = 0; i < 2_000 && failures.size() < 20; i++) { // 25 % drops: ~80 calls expected
      BackendCalls.outcome(channel).ifPresent(failures::add);
    }
    assertThat(failures).hasSize(20);
    assertThat(failures).allSatisfy(s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.getDescription()).isEqualTo("dropped by load balancer: category throttle");
    });
  }

  @Test
  void maxRequestsAdmitsExactlyThatManyStreams() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").maxRequests(10).build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    List<Status> closed = new CopyOnWriteArrayList<>();

    for (int i = 0; i < 50; i++) {
      int heldBefore = a.heldStreams();
      int closedBefore = closed.size();
      BackendCalls.hold(channel, closed);
      // Each stream is confirmed open at the server, or refused, before the next one.
      Poll.until("stream " + i + " settles", Duration.ofSeconds(5),
          () -> a.heldStreams() > heldBefore || closed.size() > closedBefore);
    }

    assertThat(a.heldStreams()).isEqualTo(10);
    assertThat(closed).hasSize(40);
    assertThat(closed).allSatisfy(s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.getDescription()).isEqualTo("cluster payments: max concurrent requests 10 exceeded");
    });

    a.releaseHeld(3);
    Poll.until("43 closed streams", () -> closed.size() >= 43);
    for (int i = 0; i < 5; i++) {
      int closedBefore = closed.size();
      int heldBefore = a.heldStreams();
      BackendCalls.hold(channel, closed);
      Poll.until("stream settles", Duration.ofSeconds(5),
          () -> a.heldStreams() > heldBefore || closed.size() > closedBefore);
    }
    assertThat(a.heldStreams()).isEqualTo(10);
    assertThat(closed).hasSize(45);
    a.releaseHeld(10);
  }

  @Test
  void controlPlaneDownKeepsRoutingFromCacheAndRestartedFlowsAgain() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    ads.stop();
    assertThat(calls(channel, 200)).containsExactly(Map.entry("a", 200));

    ads.start();
    ads.setEndpoints(oneEndpoint(b).build());
    awaitCalls(channel, 10, Duration.ofSeconds(15), w -> w.getOrDefault("b", 0) == 10);
  }

  @Test
  void idleChannelWakesWhileControlPlaneIsDownAndRoutesFromRetainedCache() throws Exception {
    // Default retention (5 min): the pooled client and its cache outlive the idle balancer.
    System.setProperty(BOOTSTRAP_PROPERTY, ads.bootstrap().build());
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    ads.stop();
    channel.enterIdle();

    assertThat(BackendCalls.call(channel)).isEqualTo("a");
  }

  @Test
  void serviceConfigOnAnyTargetSelectsThePolicy() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    // The DNS resolver's address for this target is ignored: the control plane decides.
    ManagedChannel channel = track(Grpc.newChannelBuilder("dns:///127.0.0.1:9", InsecureChannelCredentials.create())
        .defaultServiceConfig(XdsClusterPolicy.serviceConfig("payments"))
        .disableServiceConfigLookUp()
        .build());

    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void targetHelperNamesTheCluster() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("pay ments").build());
    ads.setEndpoints(XdsResources.endpoints("pay ments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY))
        .build());
    ManagedChannel channel = track(
        Grpc.newChannelBuilder(XdsClusterPolicy.target("pay ments"), InsecureChannelCredentials.create()).build());

    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void istioClusterNameRoutesThroughItsEncodedTarget() throws Exception {
    String cluster = "outbound|8080||echo.default.svc.cluster.local";
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster(cluster).build());
    ads.setEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY))
        .build());
    String target = XdsClusterPolicy.target(cluster);
    assertThat(target).isEqualTo("xds-cluster:///outbound%7C8080%7C%7Cecho.default.svc.cluster.local");
    ManagedChannel channel = track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build());

    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    assertThat(ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL)).containsExactly(cluster);
  }

  @Test
  void clientHandedInThroughNameResolverArgIsUsedAndNotClosed() throws Exception {
    System.clearProperty(BOOTSTRAP_PROPERTY); // no bootstrap anywhere: only the handed-in client
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(ads.serverUri(), InsecureChannelCredentials.create()).build()) {
      ManagedChannel channel = track(Grpc.newChannelBuilder("xds-cluster:///payments", InsecureChannelCredentials
          .create())
          .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
          .build());

      awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

      assertThat(client.isClosed()).isFalse();
    }
  }

  @Test
  void noBootstrapFailsRpcsNamingWhereToPutOne() throws Exception {
    System.clearProperty(BOOTSTRAP_PROPERTY);
    ManagedChannel channel = channel();

    Status status = BackendCalls.failure(channel);

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).contains("cluster payments").contains("jxds.bootstrap")
        .contains("GRPC_XDS_BOOTSTRAP").contains("XDS_CLIENT_ARG");
  }

  @Test
  void channelCreatedBeforeItsBootstrapRoutesOnceTheBootstrapAppears() throws Exception {
    System.clearProperty(BOOTSTRAP_PROPERTY);
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(oneEndpoint(a).build());
    ManagedChannel channel = channel();
    Status status = BackendCalls.failure(channel);
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).contains("cluster payments", "jxds.bootstrap", "GRPC_XDS_BOOTSTRAP");

    System.setProperty(BOOTSTRAP_PROPERTY, ads.bootstrap().jxdsOption("client_retention", "0s").build());

    // No enterIdle(): the channel's own re-resolution (with backoff, first after about 1 s)
    // must find the bootstrap.
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void badBootstrapFailsRpcsNamingTheSourceAndField() throws Exception {
    System.setProperty(BOOTSTRAP_PROPERTY, "{\"xds_servers\": [], \"node\": {\"id\": \"n\"}}");
    ManagedChannel channel = channel();

    Status status = BackendCalls.failure(channel);

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).as("the field and its value; no hint about handing a client in")
        .isEqualTo("cluster payments: system property jxds.bootstrapConfig: xds_servers is required and must not "
            + "be empty, got []");
  }

  private ManagedChannel channel() {
    return bed.newChannel("payments");
  }

  private ManagedChannel track(ManagedChannel channel) {
    return bed.track(channel);
  }

  private static EndpointsBuilder oneEndpoint(TestBackend backend) {
    return XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.port(), HEALTHY));
  }

  private static EndpointsBuilder twoLocalities(TestBackend a, long weightA, TestBackend b, long weightB) {
    return XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(weightA).endpoint("127.0.0.1", a.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(weightB).endpoint("127.0.0.1", b.port(), HEALTHY));
  }

  /** Asserts that {@code name} took {@code expectedPercent} of the RPCs in {@code split}, within 2 points. */
  private static void assertShare(Map<String, Integer> split, String name, double expectedPercent) {
    assertThat(100 * BackendCalls.share(split, name)).as("share of %s in %s", name, split)
        .isBetween(expectedPercent - 2, expectedPercent + 2);
  }
}
