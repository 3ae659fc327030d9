package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS snippet of docs/tls.md ({@link TlsCluster}) against a control plane whose cluster asks
 * for mutual TLS (gRFC A29), with the bootstrap that page shows; the page shows the snippet
 * verbatim ({@link DocSnippetsTest}).
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
    TestPki ca = TestPki.create("mesh-ca");
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    ca.issue("payments", "spiffe://cluster.local/ns/default/sa/payments").write(dir.resolve("server"));
    ca.issue("client").write(dir.resolve("client"));
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), TlsServerCredentials.newBuilder()
            .keyManager(dir.resolve("server.crt").toFile(), dir.resolve("server.key").toFile())
            .trustManager(caFile.toFile())
            .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
            .build())
        .addService(ServerServiceDefinition.builder("grpc.health.v1.Health")
            .addMethod(DemoBackends.HEALTH_CHECK, ServerCalls.asyncUnaryCall((request, response) -> {
              response.onNext(new byte[] {0x08, 0x01});
              response.onCompleted();
            }))
            .build())
        .build()
        .start();
    ads.start();
    ads.setClusters(XdsResources.cluster("payments")
        .mutualTls("default", "spiffe://cluster.local/ns/default/sa/payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.getPort(), HEALTHY))
        .build());
    System.setProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY, """
        {
          "xds_servers": [{"server_uri": "%s", "channel_creds": [{"type": "insecure"}]}],
          "node": {"id": "payments-client-1"},
          "certificate_providers": {
            "default": {"plugin_name": "file_watcher", "config": {
              "certificate_file": "%s", "private_key_file": "%s", "ca_certificate_file": "%s",
              "refresh_interval": "10m"}}
          },
          "jxds": {"client_retention": "0s"}
        }""".formatted(ads.serverUri(), dir.resolve("client.crt"), dir.resolve("client.key"), caFile));

    channel = TlsCluster.paymentsChannel();

    assertThat(ClientCalls.blockingUnaryCall(channel, DemoBackends.HEALTH_CHECK,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0])).containsExactly(0x08, 0x01);
  }
}
