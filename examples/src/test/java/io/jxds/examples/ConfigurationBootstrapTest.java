package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/configuration.md's bootstrap with a delta primary and a state-of-the-world fallback
 * (gRFC A71) routes a jxds channel through whichever of the two answers.
 */
class ConfigurationBootstrapTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer fallback = FakeAdsServer.loopback();
  private TestBackend backend;

  @BeforeEach
  void serveOneCluster() {
    backend = bed.backends().start("a");
    fallback.start();
    for (FakeAdsServer server : new FakeAdsServer[] {bed.ads(), fallback}) {
      server.setClusters(XdsResources.cluster("payments").build());
      server.setEndpoints(XdsResources.endpoints("payments")
          .locality("us-east1", "us-east1-b", "", l -> l.endpoint(backend.ip(), backend.port(), HEALTHY))
          .build());
    }
  }

  @AfterEach
  void stopFallback() {
    fallback.stop();
  }

  @Test
  void primaryIsSpokenToInDeltaXds() {
    bed.useBootstrap(bootstrap(bed.ads().serverUri()));

    assertThat(BackendCalls.call(bed.newChannel("payments"))).isEqualTo("a");
    assertThat(bed.ads().requests().delta()).extracting(DeltaDiscoveryRequest::getTypeUrl)
        .contains(FakeAdsServer.CLUSTER_TYPE_URL);
    assertThat(fallback.streams().count()).as("streams to the fallback").isZero();
  }

  @Test
  void fallbackServesWhileThePrimaryCannotBeReached() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    bed.useBootstrap(bootstrap("127.0.0.1:" + closedPort));

    assertThat(BackendCalls.call(bed.newChannel("payments"))).isEqualTo("a");
    assertThat(fallback.requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL)).as("CDS requests to the fallback")
        .isNotEmpty();
  }

  /** The page's bootstrap with this test's servers, kept no longer than the test. */
  private String bootstrap(String primary) {
    String json = DocSnippet.read("docs/configuration.md", "delta-fallback-bootstrap.json");
    json = DocSnippet.replace(json, "xds.example.com:18000", primary);
    json = DocSnippet.replace(json, "xds-backup.example.com:18000", fallback.serverUri());
    return DocSnippet.replace(json, "\"client_retention\": \"5m\"", "\"client_retention\": \"0s\"");
  }
}
