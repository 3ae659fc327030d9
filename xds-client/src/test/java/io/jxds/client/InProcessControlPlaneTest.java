package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code server_uri} of the form {@code inprocess:NAME}: the client dials a control plane in
 * the same JVM, which grpc-java resolves no other way.
 */
class InProcessControlPlaneTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private FakeAdsServer server;
  private DefaultXdsClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void clientBuiltForAnInProcessServerUriGetsItsResources() {
    server = FakeAdsServer.inProcess().start();
    server.setClusters(XdsResources.cluster("a").build());
    assertThat(server.serverUri()).startsWith("inprocess:");

    client = XdsClientBuilder.forTarget(server.serverUri(), InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("in-process").build())
        .build();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);

    Poll.until("a received", WAIT, () -> !a.updates().isEmpty());
    assertThat(a.updates()).extracting(TestCluster::name).containsExactly("a");
    server.requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
  }

  @Test
  void inProcessServerUriWithTlsCredentialsIsRejectedNamingTheUri() {
    assertThatThrownBy(() -> XdsClientBuilder.forTarget("inprocess:cp", TlsChannelCredentials.create()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server_uri \"inprocess:cp\"")
        .hasMessageContaining("insecure");
  }

  @Test
  void inProcessServerUriWithoutANameIsRejected() {
    assertThatThrownBy(() -> XdsClientBuilder.forTarget("inprocess:", InsecureChannelCredentials.create()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server_uri \"inprocess:\": no server name");
  }
}
