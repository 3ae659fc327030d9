package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.TlsServerCredentials;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsBootstrap;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bootstrap's certificate providers in a real client (gRFC A29: clusters naming an instance the
 * bootstrap lacks are NACKed) and TLS to the control plane (gRFC A65), against FakeAdsServer on
 * 127.0.0.1 with generated certificates.
 */
class CertificateProvidersTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private final TestPki ca = TestPki.create("mesh-ca");
  private DefaultXdsClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    ads.stop();
  }

  @Test
  void clusterNamingAProviderTheBootstrapLacksIsNackedAndAKnownOneIsAccepted() throws Exception {
    ca.issue("client").write(dir.resolve("client"));
    ca.writeCertificate(dir.resolve("ca.pem"));
    ads.start();
    ads.setClusters(
        XdsResources.cluster("typo").mutualTls("defualt").build(),
        XdsResources.cluster("payments").mutualTls("default", "payments.example.com").build());
    client = build(b -> b.fileWatcherProvider("default", TestPki.Identity.certificateFile(dir.resolve("client")),
        TestPki.Identity.keyFile(dir.resolve("client")), dir.resolve("ca.pem"), null));
    RecordingWatcher<ClusterUpdate> typo = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> payments = new RecordingWatcher<>();
    client.watchCluster("typo", typo, Runnable::run);
    client.watchCluster("payments", payments, Runnable::run);

    RecordedRequest nack = ads.requests().awaitNack(FakeAdsServer.CLUSTER_TYPE_URL, WAIT);
    assertThat(nack.errorMessage()).contains("cluster \"typo\": tls_certificate_provider_instance must name one of "
        + "the bootstrap's certificate_providers [default], got \"defualt\"");
    Poll.until("payments accepted", () -> payments.updates().size() == 1);
    assertThat(payments.updates().get(0).upstreamTls()).isPresent();
    // One error per response that carried typo: one or two, as the two watches went out in one
    // request or two.
    Poll.until("typo's error", () -> !typo.errors().isEmpty());
    assertThat(typo.errors()).allSatisfy(e -> assertThat(e.getDescription()).contains("\"defualt\""));
    assertThat(typo.updates()).isEmpty();
    assertThat(client.certificateProviders()).containsOnlyKeys("default");
    assertThat(client.certificateProviders().get("default").material().privateKey()).isPresent();
  }

  @Test
  void controlPlaneOverTls() throws Exception {
    ca.issue("xds-server", "127.0.0.1").write(dir.resolve("server"));
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    ads.serverCredentials(TlsServerCredentials.create(
        TestPki.Identity.certificateFile(dir.resolve("server")).toFile(),
        TestPki.Identity.keyFile(dir.resolve("server")).toFile()));
    ads.start();
    ads.setClusters(XdsResources.cluster("payments").build());
    client = build(b -> b.tlsChannelCredentials(caFile, null, null));
    assertClusterArrives();
  }

  @Test
  void controlPlaneOverMutualTlsRereadsTheClientCertificateWhenItChanges() throws Exception {
    ca.issue("xds-server", "127.0.0.1").write(dir.resolve("server"));
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    ads.serverCredentials(TlsServerCredentials.newBuilder()
        .keyManager(TestPki.Identity.certificateFile(dir.resolve("server")).toFile(),
            TestPki.Identity.keyFile(dir.resolve("server")).toFile())
        .trustManager(caFile.toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build());
    // First a client certificate the server does not trust: the stream cannot start.
    TestPki.create("rogue-ca").issue("client").write(dir.resolve("client"));
    ads.start();
    ads.setClusters(XdsResources.cluster("payments").build());
    Path clientBase = dir.resolve("client");
    client = build(b -> b.tlsChannelCredentials(
        caFile, TestPki.Identity.certificateFile(clientBase), TestPki.Identity.keyFile(clientBase)));
    RecordingWatcher<ClusterUpdate> payments = new RecordingWatcher<>();
    client.watchCluster("payments", payments, Runnable::run);
    Poll.until("a failed stream reaches the watcher", () -> !payments.errors().isEmpty());
    assertThat(payments.updates()).isEmpty();

    // The agent rotates in a trusted certificate: the next handshake reads it, same client.
    ca.issue("client").write(dir.resolve("client"));
    Poll.until("cluster over mutual TLS", () -> payments.updates().size() == 1);
  }

  private void assertClusterArrives() {
    RecordingWatcher<ClusterUpdate> payments = new RecordingWatcher<>();
    client.watchCluster("payments", payments, Runnable::run);
    Poll.until("cluster over TLS", () -> payments.updates().size() == 1);
    assertThat(payments.updates().get(0).clusterName()).isEqualTo("payments");
  }

  private DefaultXdsClient build(UnaryOperator<FakeAdsBootstrap> bootstrap) throws Exception {
    Bootstrap parsed = BootstrapParser.parse(bootstrap.apply(ads.bootstrap()).build(), "test");
    return XdsClientBuilder.fromBootstrap(parsed).build();
  }
}
