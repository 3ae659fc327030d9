package io.jxds.testing;

import static io.jxds.testing.AdsTestClient.names;
import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServerTest.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unix domain socket transport (Linux with epoll; skipped elsewhere), as istio-agent serves ADS. */
class FakeAdsServerUnixSocketTest {
  @TempDir Path dir;
  private FakeAdsServer server;

  @BeforeEach
  void create() {
    assumeTrue(FakeAdsServer.unixSocketsSupported(), "unix domain sockets need Linux with epoll");
    server = FakeAdsServer.unixSocket(dir.resolve("XDS"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
      assertThat(server.unexpectedErrors()).isEmpty();
    }
  }

  @Test
  void servesOnTheSocketNamedByItsUnixUri() throws Exception {
    server.start();

    assertThat(server.serverUri()).isEqualTo("unix://" + dir.resolve("XDS").toAbsolutePath());
    assertThat(server.bootstrap().build()).contains("\"unix://" + dir.resolve("XDS").toAbsolutePath() + "\"");
    assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
    assertThat(Files.exists(dir.resolve("XDS"))).isTrue();
    server.setClusters(cluster("a"));
    try (AdsTestClient client = new AdsTestClient(server)) {
      client.request(CLUSTER_TYPE_URL, "", "", "a");
      assertThat(names(client.awaitResponse())).containsExactly("a");
    }
  }

  @Test
  void restartServesAgainOnTheSameSocket() throws Exception {
    server.start();
    server.setClusters(cluster("a"));
    server.stop();
    assertThat(Files.exists(dir.resolve("XDS"))).isFalse();

    server.start();

    try (AdsTestClient client = new AdsTestClient(server)) {
      client.request(CLUSTER_TYPE_URL, "", "", "a");
      DiscoveryResponse response = client.awaitResponse();
      assertThat(response.getVersionInfo()).isEqualTo("1");
      assertThat(names(response)).containsExactly("a");
    }
  }
}
