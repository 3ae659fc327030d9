package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.WatchHandle;
import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.FakeClock;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client over a real gRPC transport (in-process) against FakeAdsServer; timers on a manual
 * clock, so only the network runs on its own.
 */
class FakeAdsServerProtocolTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final Executor DIRECT = Runnable::run;

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private final FakeClock clock = new FakeClock();
  private ManagedChannel channel;
  private DefaultXdsClient client;

  private FakeAdsServer server() {
    return ads.server();
  }

  private DefaultXdsClient newClient(Consumer<XdsClientBuilder> config) {
    channel = server().newClientChannel();
    XdsClientBuilder b =
        XdsClientBuilder.forChannel(channel)
            .node(Node.newBuilder().setId("fake-node").build())
            .scheduler(clock)
            .clock(clock.clock())
            .ticker(clock.ticker())
            .random(TestRandom.fixed(0.5));
    config.accept(b);
    client = b.build();
    return client;
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
  }

  private static Cluster cluster(String name) {
    return XdsResources.cluster(name).edsServiceName(name + "-eds").build();
  }

  private static ClusterLoadAssignment endpoints(String name, String ip) {
    return XdsResources.endpoints(name).locality("r", "z", "", l -> l.endpoint(ip, 80, HealthStatus.HEALTHY)).build();
  }

  private <T> RecordingWatcher<T> watch(io.jxds.api.ResourceType<T> type, String name) {
    RecordingWatcher<T> w = new RecordingWatcher<>();
    client.watch(type, name, w, DIRECT);
    return w;
  }

  @Test
  void resourcesReachWatchersAndEveryRequestCarriesTheNode() {
    server().setClusters(cluster("a"));
    server().setEndpoints(endpoints("a-eds", "10.0.0.1"));
    newClient(b -> {});
    RecordingWatcher<TestCluster> c = watch(TestTypes.CLUSTER, "a");
    RecordingWatcher<TestEndpoints> e = watch(TestTypes.ENDPOINTS, "a-eds");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    server().requests().awaitAck(ENDPOINTS_TYPE_URL, "1", WAIT);
    Poll.until("updates", () -> c.updates().size() == 1 && e.updates().size() == 1);
    assertThat(c.updates().get(0)).isEqualTo(new TestCluster("a", "a-eds"));
    assertThat(e.updates().get(0).addresses()).containsExactly("10.0.0.1:80");
    assertThat(server().requests().all()).allSatisfy(r -> assertThat(r.raw().getNode().getId()).isEqualTo("fake-node"));
    RecordedRequest ack = server().requests().lastAck(CLUSTER_TYPE_URL).orElseThrow();
    assertThat(ack.resourceNames()).containsExactly("a");
    assertThat(ack.responseNonce()).isNotEmpty();
  }

  @Test
  void subscribeAndUnsubscribeChangeTheNamesOnTheWire() {
    server().setClusters(cluster("a"), cluster("b"));
    newClient(b -> b.cacheRetention(Duration.ZERO));
    watch(TestTypes.CLUSTER, "a");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    WatchHandle hb = client.watch(TestTypes.CLUSTER, "b", new RecordingWatcher<>(), DIRECT);
    server().requests().await(CLUSTER_TYPE_URL, r -> r.resourceNames().equals(List.of("a", "b")), WAIT);
    Poll.until("both subscribed", () -> server().streams().subscribedNames(CLUSTER_TYPE_URL).size() == 2);
    hb.cancel();
    // Either a subscription change, or (when it crossed the server's answer to the "a, b"
    // request and was ignored as stale) the ACK of that answer: both carry only "a".
    server().requests().await(CLUSTER_TYPE_URL, r -> r.resourceNames().equals(List.of("a")), WAIT);
    Poll.until("only a subscribed",
        () -> server().streams().subscribedNames(CLUSTER_TYPE_URL).equals(java.util.Set.of("a")));
  }

  @Test
  void nackCarriesTheLastAcceptedVersionAndTheReasonAndValidResourcesStillApply() {
    server().setClusters(cluster("a"), cluster("b"));
    newClient(b -> {});
    RecordingWatcher<TestCluster> a = watch(TestTypes.CLUSTER, "a");
    RecordingWatcher<TestCluster> b = watch(TestTypes.CLUSTER, "b");
    server().requests().await(
        CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.ACK && r.resourceNames().size() == 2, WAIT);
    String accepted = server().version(CLUSTER_TYPE_URL);
    server().setClusters(XdsResources.cluster("a").edsServiceName("a-v2").build(), XdsResources.cluster("b")
        .edsConfigPath("/x").build());
    RecordedRequest nack = server().requests().awaitNack(CLUSTER_TYPE_URL, WAIT);
    assertThat(nack.versionInfo()).isEqualTo(accepted);
    assertThat(nack.errorCode()).isEqualTo(3);
    assertThat(nack.errorMessage())
        .isEqualTo("cluster \"b\": eds_cluster_config.eds_config must be ads or self, got path");
    Poll.until("a updated, b errored", () -> a.updates().size() == 2 && b.errors().size() == 1);
    assertThat(a.updates().get(1).edsServiceName()).isEqualTo("a-v2");
    assertThat(b.updates()).hasSize(1); // the last good value stays
  }

  @Test
  void deletedClusterDoesNotExistButMissingEndpointsAreUnchanged() {
    server().setClusters(cluster("a"), cluster("b"));
    server().setEndpoints(endpoints("e1", "10.0.0.1"), endpoints("e2", "10.0.0.2"));
    newClient(b -> {});
    RecordingWatcher<TestCluster> a = watch(TestTypes.CLUSTER, "a");
    watch(TestTypes.CLUSTER, "b");
    RecordingWatcher<TestEndpoints> e1 = watch(TestTypes.ENDPOINTS, "e1");
    watch(TestTypes.ENDPOINTS, "e2");
    Poll.until("data", () -> a.updates().size() == 1 && e1.updates().size() == 1);
    server().requests().await(ENDPOINTS_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.ACK && r.resourceNames()
        .size() == 2, WAIT);

    server().removeClusters("a");
    server().removeEndpoints("e1");
    server().putEndpoints(endpoints("e2", "10.0.0.3"));
    Poll.until("a deleted", () -> a.last() instanceof DoesNotExist);
    server().requests().awaitAck(ENDPOINTS_TYPE_URL, server().version(ENDPOINTS_TYPE_URL), WAIT);
    assertThat(e1.events()).hasSize(1);
    assertThat(client.status().resource(ENDPOINTS_TYPE_URL, "e1").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void ignoreResourceDeletionKeepsTheDeletedCluster() {
    server().setClusters(cluster("a"), cluster("b"));
    newClient(b -> b.ignoreResourceDeletion(true));
    RecordingWatcher<TestCluster> a = watch(TestTypes.CLUSTER, "a");
    watch(TestTypes.CLUSTER, "b");
    Poll.until("data", () -> a.updates().size() == 1);
    server().removeClusters("a");
    server().requests().awaitAck(CLUSTER_TYPE_URL, server().version(CLUSTER_TYPE_URL), WAIT);
    assertThat(a.events()).hasSize(1);
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void brokenStreamReconnectsSilentlyAndResubscribesWithVersionsAndEmptyNonce() {
    server().setClusters(cluster("a"));
    server().setEndpoints(endpoints("e", "10.0.0.1"));
    newClient(b -> {});
    RecordingWatcher<TestCluster> a = watch(TestTypes.CLUSTER, "a");
    RecordingWatcher<TestEndpoints> e = watch(TestTypes.ENDPOINTS, "e");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    server().requests().awaitAck(ENDPOINTS_TYPE_URL, "1", WAIT);
    server().requests().clear();

    server().faults().breakStreams(Status.UNAVAILABLE.withDescription("max connection age"));
    // The stream lived no (manual) time: the next one waits the reset backoff's first delay (A57).
    Poll.until("retry scheduled", () -> clock.numPendingTasks() == 1);
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
    clock.forwardTime(1, TimeUnit.SECONDS);
    RecordedRequest cds =
        server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL, WAIT);
    RecordedRequest eds = server().requests().await(ENDPOINTS_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL,
        WAIT);
    assertThat(cds.versionInfo()).isEqualTo("1");
    assertThat(cds.responseNonce()).isEmpty();
    assertThat(cds.resourceNames()).containsExactly("a");
    assertThat(eds.versionInfo()).isEqualTo("1");
    assertThat(eds.responseNonce()).isEmpty();
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    assertThat(a.events()).hasSize(1); // same value again: nobody is told
    assertThat(e.events()).hasSize(1);
    assertThat(clock.numPendingTasks()).isZero(); // reconnected: no backoff timer left
  }

  @Test
  void controlPlaneRestartKeepsTheCacheAndBacksOff() {
    server().setClusters(cluster("a"));
    newClient(b -> {});
    RecordingWatcher<TestCluster> a = watch(TestTypes.CLUSTER, "a");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    server().stop();
    // The first stream had a response: reconnect after the reset backoff's first delay; that
    // stream waits for the channel, whose failure to connect is reported.
    Poll.until("backoff scheduled", () -> clock.numPendingTasks() == 1);
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
    clock.forwardTime(1, TimeUnit.SECONDS);
    Poll.until("disconnected", () -> !client.status().connected());
    RecordingWatcher<TestCluster> late = watch(TestTypes.CLUSTER, "a");
    // Served from the cache while the control plane is away; on the client's context, which a
    // transport thread may be running at that moment, so not always before watch() returns.
    Poll.until("served from the cache", () -> !late.updates().isEmpty());
    assertThat(late.updates()).hasSize(1);
    assertThat(a.events()).hasSize(1);

    server().start();
    // The waiting stream starts when the channel's own (real-time) reconnect backoff lets it
    // reconnect; firing the client's timers (its reconnect nudges) must not get in the way.
    Poll.until(
        "reconnected",
        () -> {
          if (clock.numPendingTasks() > 0) {
            clock.forwardNanos(clock.nanosUntilNextTask());
          }
          return client.status().connected();
        });
    server().setClusters(XdsResources.cluster("a").edsServiceName("after-restart").build());
    Poll.until("update after restart", () -> a.updates().size() == 2);
  }

  @Test
  void missingResourceTimesOutOnlyAfterTheRequestIsOnTheWire() {
    server().setClusters(cluster("a"));
    newClient(b -> b.resourceTimeout(Duration.ofSeconds(2)));
    watch(TestTypes.CLUSTER, "a");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    server().faults().holdResponses(); // the control plane stops answering
    RecordingWatcher<TestCluster> ghost = watch(TestTypes.CLUSTER, "ghost");
    server().requests().await(CLUSTER_TYPE_URL, r -> r.resourceNames().contains("ghost"), WAIT);
    assertThat(ghost.events()).isEmpty(); // no answer yet: its timer decides
    Poll.until("timer armed", () -> clock.numPendingTasks() == 1);
    clock.forwardTime(2, TimeUnit.SECONDS);
    // The timer hands over to the client's sync context, which a transport thread may be draining.
    Poll.until("does not exist", () -> !ghost.events().isEmpty());
    assertThat(ghost.events()).containsExactly(new DoesNotExist("ghost"));
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "ghost").orElseThrow().lastError())
        .hasValueSatisfying(why -> assertThat(why).startsWith("not received within 2 s:"));
  }

  /**
   * A mistyped cluster fails as soon as the control plane answers the request naming it with a
   * response that lacks it, not after the resource timeout (no clock moves here).
   */
  @Test
  void nameMissingFromTheAnswerToTheRequestNamingItDoesNotExistAtOnce() {
    server().setClusters(cluster("payments"));
    newClient(b -> {});
    watch(TestTypes.CLUSTER, "payments");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    RecordingWatcher<TestCluster> typo = watch(TestTypes.CLUSTER, "paymnets");

    Poll.until("does not exist", WAIT, () -> !typo.events().isEmpty());
    assertThat(typo.events()).containsExactly(new DoesNotExist("paymnets"));
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "paymnets").orElseThrow().lastError())
        .hasValueSatisfying(why -> assertThat(why).contains("answer to the request naming it"));
  }
}
