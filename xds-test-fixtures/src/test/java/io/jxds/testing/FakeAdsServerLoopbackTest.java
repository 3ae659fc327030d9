package io.jxds.testing;

import static io.jxds.testing.AdsTestClient.names;
import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServerTest.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Netty transport on 127.0.0.1, and stop/start as a control-plane restart. */
class FakeAdsServerLoopbackTest {
  private static final Duration TIMEOUT = AdsTestClient.TIMEOUT;

  private final FakeAdsServer server = FakeAdsServer.loopback();

  @AfterEach
  void stop() {
    server.close();
    assertThat(server.unexpectedErrors()).isEmpty();
  }

  @Test
  void portZeroBindsARealLoopbackPort() throws Exception {
    assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
    server.start();

    assertThat(server.port()).isPositive();
    assertThat(server.serverUri()).isEqualTo("127.0.0.1:" + server.port());
    server.setClusters(cluster("a"));
    try (AdsTestClient client = new AdsTestClient(server)) {
      client.request(CLUSTER_TYPE_URL, "", "", "a");
      assertThat(names(client.awaitResponse())).containsExactly("a");
    }
  }

  @Test
  void restartServesTheSameResourcesOnTheSamePort() throws Exception {
    server.start();
    int port = server.port();
    server.setClusters(cluster("a"));
    try (AdsTestClient before = new AdsTestClient(server)) {
      before.request(CLUSTER_TYPE_URL, "", "", "a");
      DiscoveryResponse response = before.awaitResponse();
      before.ack(response, "a");
      server.requests().awaitAck(CLUSTER_TYPE_URL, "1", TIMEOUT);

      server.stop();

      assertThat(server.isRunning()).isFalse();
      // shutdownNow resets the streams: the client sees them fail (CANCELLED), not end cleanly.
      assertThat(before.awaitClosed().getCode()).isNotEqualTo(Status.Code.OK);
      assertThat(server.streams().count()).isZero();
    }

    server.start();

    assertThat(server.port()).isEqualTo(port);
    try (AdsTestClient after = new AdsTestClient(server)) {
      after.request(CLUSTER_TYPE_URL, "1", "", "a");
      DiscoveryResponse response = after.awaitResponse();
      assertThat(response.getVersionInfo()).isEqualTo("1");
      assertThat(names(response)).containsExactly("a");
    }
  }

  @Test
  void stopAndStartAreIdempotent() {
    server.stop();
    server.start();
    int port = server.port();
    server.start();
    assertThat(server.port()).isEqualTo(port);
    server.stop();
    server.stop();
    assertThat(server.isRunning()).isFalse();
  }
}
