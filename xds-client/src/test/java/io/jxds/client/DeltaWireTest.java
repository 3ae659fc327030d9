package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.api.WatchHandle;
import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Delta xDS on a real gRPC stream to FakeAdsServer's {@code DeltaAggregatedResources}. */
class DeltaWireTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private ManagedChannel channel;
  private DefaultXdsClient client;

  private FakeAdsServer server() {
    return ads.server();
  }

  @BeforeEach
  void connect() {
    channel = server().newClientChannel();
    client = XdsClientBuilder.forChannel(channel).node(Node.newBuilder().setId("n").build()).deltaXds(true).build();
  }

  @AfterEach
  void close() {
    client.close();
    channel.shutdownNow();
  }

  private static void await(java.util.function.BooleanSupplier condition) {
    Poll.until("the condition", WAIT, condition);
  }

  private RecordingWatcher<TestCluster> watchCluster(String name) {
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, name, w, Runnable::run);
    return w;
  }

  @Test
  void receivesOnlyWhatChangedAndAcksByNonce() {
    server().setClusters(XdsResources.cluster("a").build(), XdsResources.cluster("b").build());
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestCluster> b = watchCluster("b");
    await(() -> a.updates().size() == 1 && b.updates().size() == 1);
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);

    server().putClusters(XdsResources.cluster("b").edsServiceName("b2").build());
    await(() -> b.updates().size() == 2);
    server().requests().awaitAck(CLUSTER_TYPE_URL, "2", WAIT);
    assertThat(a.updates()).hasSize(1);
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().version()).isEqualTo("1");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "b").orElseThrow().version()).isEqualTo("2");
    assertThat(server().requests().ofType(CLUSTER_TYPE_URL)).noneMatch(r -> r.kind() == RecordedRequest.Kind.NACK);
  }

  @Test
  void subscribesAndUnsubscribesSingleNames() {
    server().setClusters(XdsResources.cluster("a").build(), XdsResources.cluster("b").build());
    RecordingWatcher<TestCluster> a = watchCluster("a");
    await(() -> a.updates().size() == 1);
    RecordingWatcher<TestCluster> b = new RecordingWatcher<>();
    WatchHandle hb = client.watch(TestTypes.CLUSTER, "b", b, Runnable::run);
    await(() -> b.updates().size() == 1);
    hb.cancel();
    await(() -> server().streams().subscribedNames(CLUSTER_TYPE_URL).equals(java.util.Set.of("a")));

    List<DeltaDiscoveryRequest> subscriptions = server().requests().delta().stream()
        .filter(r -> r.getResponseNonce().isEmpty())
        .toList();
    assertThat(subscriptions).extracting(r -> List.copyOf(r.getResourceNamesSubscribeList()))
        .containsExactly(List.of("a"), List.of("b"), List.of());
    assertThat(subscriptions.get(2).getResourceNamesUnsubscribeList()).containsExactly("b");
  }

  @Test
  void removedResourcesDeleteAClusterAndItsEndpoints() {
    server().setClusters(XdsResources.cluster("a").build());
    server().setEndpoints(XdsResources.endpoints("a")
        .locality("r", "z", "", l -> l.endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY)).build());
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestEndpoints> e = new RecordingWatcher<>();
    client.watch(TestTypes.ENDPOINTS, "a", e, Runnable::run);
    await(() -> a.updates().size() == 1 && e.updates().size() == 1);

    server().removeClusters("a");
    server().removeEndpoints("a");

    await(() -> new DoesNotExist("a").equals(a.last()) && new DoesNotExist("a").equals(e.last()));
    server().requests().awaitAck(ENDPOINTS_TYPE_URL, "2", WAIT);
  }

  @Test
  void invalidResourceIsNackedByNonceNamingIt() {
    server().setClusters(XdsResources.cluster("a").build(),
        XdsResources.cluster("bad").edsConfigPath("/etc/eds.yaml").build());
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestCluster> bad = watchCluster("bad");
    RecordedRequest nack = server().requests().awaitNack(CLUSTER_TYPE_URL, WAIT);
    assertThat(nack.errorMessage()).contains("\"bad\"").doesNotContain("\"a\"");
    assertThat(nack.responseNonce()).isNotEmpty();
    await(() -> a.updates().size() == 1 && bad.errors().size() == 1);
  }

  @Test
  void reconnectingStreamSendsInitialResourceVersionsAndGetsNothingAgain() {
    server().setClusters(XdsResources.cluster("a").build());
    RecordingWatcher<TestCluster> a = watchCluster("a");
    await(() -> a.updates().size() == 1);
    server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    server().requests().clear();

    server().faults().breakStreams(Status.UNAVAILABLE);

    RecordedRequest initial =
        server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL, WAIT);
    assertThat(initial.resourceNames()).containsExactly("a");
    DeltaDiscoveryRequest raw = server().requests().delta().get(0);
    assertThat(raw.getInitialResourceVersionsMap()).isEqualTo(Map.of("a", "1"));
    // The server knows the client holds version 1: nothing to resend, nothing to ACK.
    server().putClusters(XdsResources.cluster("c").build());
    watchCluster("c");
    server().requests().awaitAck(CLUSTER_TYPE_URL, "2", WAIT);
    assertThat(a.updates()).hasSize(1);
  }
}
