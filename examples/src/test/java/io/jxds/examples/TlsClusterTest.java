package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS snippet of docs/tls.md ({@link TlsCluster}) against a control plane whose cluster asks
 * for mutual TLS (gRFC A29), with the bootstrap that page shows (its files in a temporary folder,
 * its control plane on 127.0.0.1); the page shows both verbatim ({@link DocSnippetsTest}).
 */
class TlsClusterTest {
  @TempDir Path dir;
  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private Server backend;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY);
    if (backend != null) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    ads.stop();
  }

  @Test
  void tlsClusterIsReachedOverMutualTls() throws Exception {
    // The files an agent would write to /etc/certs: the mesh's root, this client's chain and key.
    TestPki ca = TestPki.create("mesh-ca");
    Path caFile = ca.writeCertificate(dir.resolve("root-cert.pem"));
    TestPki.Identity client = ca.issue("client");
    client.writeCertificate(dir.resolve("cert-chain.pem"));
    client.writeKey(dir.resolve("key.pem"));
    ca.issue("payments", "spiffe://cluster.local/ns/default/sa/payments").write(dir.resolve("server"));
    ca.issue("xds", "127.0.0.1").write(dir.resolve("xds"));
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), mutualTls(caFile, "server"))
        .addService(ServerServiceDefinition.builder("grpc.health.v1.Health")
            .addMethod(DemoBackends.HEALTH_CHECK, ServerCalls.asyncUnaryCall((request, response) -> {
              response.onNext(new byte[] {0x08, 0x01});
              response.onCompleted();
            }))
            .build())
        .build()
        .start();
    // The control plane is reached over mutual TLS too (gRFC A65), as the page's bootstrap says.
    ads.serverCredentials(mutualTls(caFile, "xds")).start();
    ads.setClusters(XdsResources.cluster("payments")
        .mutualTls("default", "spiffe://cluster.local/ns/default/sa/payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.getPort(), HEALTHY))
        .build());
    String bootstrap = DocSnippet.read("docs/tls.md", "bootstrap.json");
    bootstrap = DocSnippet.replace(bootstrap, "xds.example.com:15012", ads.serverUri());
    bootstrap = DocSnippet.replace(bootstrap, "/etc/certs/", dir.toAbsolutePath() + "/");
    System.setProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY, DocSnippet.withoutRetention(bootstrap));

    channel = TlsCluster.paymentsChannel();

    assertThat(ClientCalls.blockingUnaryCall(channel, DemoBackends.HEALTH_CHECK,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0])).containsExactly(0x08, 0x01);
  }

  /** A server's TLS with the identity written at {@code dir/NAME}, asking for a client certificate of the mesh. */
  private ServerCredentials mutualTls(Path caFile, String name) throws IOException {
    Path identity = dir.resolve(name);
    return TlsServerCredentials.newBuilder()
        .keyManager(TestPki.Identity.certificateFile(identity).toFile(), TestPki.Identity.keyFile(identity).toFile())
        .trustManager(caFile.toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build();
  }
}
