package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.testing.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A control plane that cannot be reached, on a real channel: the error a watcher (and so an RPC)
 * gets names the transport's own cause, so that a refused port and a misspelled host read
 * differently.
 */
class ConnectionFailureCauseTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private DefaultXdsClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  private Status firstError(String target) {
    client = XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("cause-node").build())
        .build();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);
    Poll.until("the watcher hears the failure", WAIT, () -> !a.errors().isEmpty());
    return a.errors().get(0);
  }

  @Test
  void refusedConnectionIsNamedInTheWatchersError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    Status error = firstError("127.0.0.1:" + port);

    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription())
        .contains("ADS stream to 127.0.0.1:" + port + " failed")
        .containsPattern("Connection refused.*/127\\.0\\.0\\.1:" + port); // the transport's own words
  }

  @Test
  void unresolvableHostIsNamedInTheWatchersError() {
    Status error = firstError("dns:///jxds-no-such-host.invalid:443");

    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription())
        .contains("jxds-no-such-host.invalid")
        .containsAnyOf("UnknownHostException", "Unable to resolve host");
    assertThat(error.getDescription()).doesNotContain("Connection refused");
  }
}
