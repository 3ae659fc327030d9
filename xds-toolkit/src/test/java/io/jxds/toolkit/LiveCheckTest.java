package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.XdsResources;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Live mode: resources fetched from FakeAdsServer through a real jxds client get the same verdicts
 * and plan as the same resources read from files, a NACK gets the text the client sent, and a
 * missing resource or an unreachable server is a {@link BadInputException} naming it.
 */
class LiveCheckTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  private DefaultXdsClient client;

  @AfterEach
  void closeClient() {
    if (client != null) {
      client.close();
    }
  }

  private DefaultXdsClient client(String target, Duration resourceTimeout) {
    client = XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("live-test").build())
        .resourceTimeout(resourceTimeout)
        .build();
    return client;
  }

  private void serveAll() {
    LiveResources.serve(ads.server());
  }

  /** The verdicts without where they came from. */
  static List<String> verdicts(CheckReport report) {
    return report.resources().stream().map(v -> v.type() + " " + v.name() + " " + v.nack().orElse("accepted") + " "
        + v.ignoredFields()).toList();
  }

  @Test
  void acceptedResourcesGetTheVerdictsAndPlanOfTheSameResourcesReadFromFiles() throws Exception {
    serveAll();

    TrafficPlan live = Snapshot.fetchListener(client(ads.server().serverUri(), TIMEOUT), "svc", TIMEOUT).plan();

    TrafficPlan files = Snapshot.of(LiveResources.all()).plan();
    assertThat(verdicts(live.check())).isEqualTo(verdicts(files.check())).hasSize(6);
    assertThat(live.clusters()).isEqualTo(files.clusters());
    assertThat(live.listeners()).isEqualTo(files.listeners());
    assertThat(live.cluster("payments").orElseThrow().endpoint("10.0.0.3:8080").orElseThrow().share())
        .isEqualTo(Fraction.of(3, 8));
    assertThat(live.check().resources()).allSatisfy(v -> assertThat(v.source()).isEqualTo("live version 1"));
    assertThat(live.check().notes()).isEmpty();
  }

  @Test
  void aClusterFetchesItsEndpoints() throws Exception {
    serveAll();

    TrafficPlan live = Snapshot.fetchCluster(client(ads.server().serverUri(), TIMEOUT), "payments", TIMEOUT).plan();

    Snapshot files = Snapshot.of(LiveResources.clusters().get(0), LiveResources.endpoints().get(0));
    assertThat(verdicts(live.check())).isEqualTo(verdicts(files.check()));
    assertThat(live.clusters()).isEqualTo(files.plan().clusters());
  }

  @Test
  void aResourceNackedWithoutAGoodVersionGetsTheNackTextTheClientSent() throws Exception {
    Cluster bad = XdsResources.cluster("payments").lrsServer(XdsResources.adsConfigSource()).build();
    ads.server().setClusters(bad);

    TrafficPlan live = Snapshot.fetchCluster(client(ads.server().serverUri(), TIMEOUT), "payments", TIMEOUT).plan();

    String sent = ads.server().requests().awaitNack(ResourceTypes.CLUSTER_TYPE_URL, TIMEOUT).errorMessage();
    assertThat(live.check().resource("CDS", "payments").orElseThrow().nack()).hasValue(sent);
    assertThat(verdicts(live.check())).isEqualTo(verdicts(Snapshot.of(bad).check()));
    assertThat(live.check().anyNacked()).isTrue();
    assertThat(live.cluster("payments").orElseThrow().state()).isEqualTo(ClusterPlan.State.CLUSTER_NACKED);
    assertThat(live.clusters()).isEqualTo(Snapshot.of(bad).plan().clusters());
    assertThat(live.check().notes()).as("answered by the NACK, not cut short by the timeout").isEmpty();
  }

  @Test
  void aNackAfterAGoodVersionIsReportedAndThePlanKeepsTheGoodVersion() throws Exception {
    serveAll();
    DefaultXdsClient c = client(ads.server().serverUri(), TIMEOUT);
    TrafficPlan before = Snapshot.fetchCluster(c, "payments", TIMEOUT).plan();
    // An application's channel keeps the endpoints subscribed while the control plane pushes.
    c.watchEndpoints("payments-eds", new ResourceWatcher<>() {
      @Override
      public void onUpdate(EndpointsUpdate value) {}

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    }, Runnable::run);
    ads.server().setEndpoints(XdsResources.endpoints("payments-eds")
        .locality("us", "a", "", l -> l.priority(1).endpoint("10.0.0.9", 8080, HEALTHY)).build());
    String sent = ads.server().requests().awaitNack(ResourceTypes.ENDPOINTS_TYPE_URL, TIMEOUT).errorMessage();

    TrafficPlan live = Snapshot.fetchCluster(c, "payments", TIMEOUT).plan();

    assertThat(live.check().named("payments-eds")).extracting(ResourceVerdict::source, ResourceVerdict::nack)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("live version 1 (cached)", java.util.Optional.empty()),
            org.assertj.core.groups.Tuple.tuple("live version 2 (NACKed; the client keeps version 1)",
                java.util.Optional.of(sent)));
    assertThat(sent).contains("priorit");
    assertThat(live.check().anyNacked()).isTrue();
    assertThat(live.clusters()).as("the client keeps serving version 1").isEqualTo(before.clusters());
    assertThat(live.check().notes()).as("answered by the NACK, not cut short by the timeout").isEmpty();
  }

  @Test
  void aMissingRootNamesTheResourceAndTheNode() {
    serveAll();

    assertThatThrownBy(() -> Snapshot.fetchCluster(client(ads.server().serverUri(), TIMEOUT), "nope", TIMEOUT))
        .isInstanceOf(BadInputException.class)
        .hasMessage("cluster \"nope\" does not exist: the control plane's state-of-the-world response leaves it out"
            + " (as node \"live-test\")");
  }

  @Test
  void missingEndpointsAreANoteAndThePlanSaysSo() throws Exception {
    ads.server().setClusters(LiveResources.clusters().get(0));
    ads.server().setEndpoints(LiveResources.endpoints().get(1)); // not payments-eds

    TrafficPlan live = Snapshot.fetchCluster(client(ads.server().serverUri(), Duration.ofMillis(500)), "payments",
        TIMEOUT).plan();

    assertThat(live.check().notes()).containsExactly("endpoints \"payments-eds\" does not exist: the control plane"
        + " did not send it before the does-not-exist timer fired");
    assertThat(live.cluster("payments").orElseThrow().state()).isEqualTo(ClusterPlan.State.ENDPOINTS_MISSING);
  }

  @Test
  void anUnreachableServerIsNamedWithinTheTimeout() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String target = "127.0.0.1:" + port;

    assertThatThrownBy(() -> Snapshot.fetchListener(client(target, TIMEOUT), "svc", Duration.ofSeconds(1)))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("listener \"svc\": no answer from the control plane within 1s")
        .hasMessageEndingWith("(as node \"live-test\")");
  }
}
