package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.FAILED;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.balancer.XdsClusterCredentials;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The main scenario against a control plane nobody here wrote: java-control-plane's SimpleCache
 * and V3DiscoveryServer on a loopback port, a channel built from {@code xds-cluster:///payments}
 * and a bootstrap, real backends.
 */
class XdsClusterJavaControlPlaneTest {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  private static final String NODE = "jcp-app";
  private static final String GROUP = "jcp-group";

  private final TestBackends backends = new TestBackends();
  private Server controlPlane;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (controlPlane != null) {
      controlPlane.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(BOOTSTRAP_PROPERTY);
    backends.close();
  }

  @Test
  void weightsRouteTrafficAndTheCacheOutlivesAControlPlaneRestart() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    SimpleCache<String> cache = new SimpleCache<>(node -> NODE.equals(node.getId()) ? GROUP : "other");
    cache.setSnapshot(GROUP, snapshot("1", a, 1, b, 3));
    controlPlane = start(0, cache);
    int port = controlPlane.getPort();
    System.setProperty(BOOTSTRAP_PROPERTY, bootstrap(port));
    channel = Grpc.newChannelBuilder("xds-cluster:///payments", InsecureChannelCredentials.create()).build();

    awaitCalls(channel, 8, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 2 && w.getOrDefault("b", 0) == 6);
    Map<String, Integer> split = calls(channel, 4_000);
    assertThat(split.get("a")).isBetween(920, 1080); // 25 % ± 2 points
    assertThat(split).doesNotContainKey(FAILED);

    cache.setSnapshot(GROUP, snapshot("2", a, 1, b, 1));
    awaitCalls(channel, 100, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 50);

    // The control plane goes away: RPCs keep flowing from the cached config.
    controlPlane.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    assertThat(calls(channel, 200)).containsOnlyKeys("a", "b");

    // It comes back as a fresh process on the same port, with a newer snapshot: updates flow.
    SimpleCache<String> restarted = new SimpleCache<>(node -> NODE.equals(node.getId()) ? GROUP : "other");
    restarted.setSnapshot(GROUP, snapshot("3", a, 0, b, 1));
    controlPlane = start(port, restarted);
    awaitCalls(channel, 20, Duration.ofSeconds(15), w -> w.getOrDefault("b", 0) == 20);
  }

  // gRFC A65 to java-control-plane, and A29 from it: TLS (then mutual TLS) to the control plane, a
  // cluster whose UpstreamTlsContext names the bootstrap's provider, mutual TLS to the backend.
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void tlsToTheControlPlaneAndMutualTlsToBackendsFromItsCluster(boolean mutualToControlPlane, @TempDir Path dir)
      throws Exception {
    TestPki ca = TestPki.create("mesh-ca");
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    Path server = dir.resolve("xds");
    Path backend = dir.resolve("backend");
    Path client = dir.resolve("client");
    ca.issue("xds", "127.0.0.1").write(server);
    ca.issue("backend", "payments.example.com").write(backend);
    ca.issue("client").write(client);
    TestBackend a = backends.start("a", TlsServerCredentials.newBuilder()
        .keyManager(TestPki.Identity.certificateFile(backend).toFile(), TestPki.Identity.keyFile(backend).toFile())
        .trustManager(caFile.toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build());
    Cluster cluster = XdsResources.cluster("payments").mutualTls("default", "payments.example.com").build();
    ClusterLoadAssignment endpoints = XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY))
        .build();
    SimpleCache<String> cache = new SimpleCache<>(node -> NODE.equals(node.getId()) ? GROUP : "other");
    cache.setSnapshot(GROUP,
        Snapshot.create(List.of(cluster), List.of(endpoints), List.of(), List.of(), List.of(), "1"));
    TlsServerCredentials.Builder serverTls = TlsServerCredentials.newBuilder()
        .keyManager(TestPki.Identity.certificateFile(server).toFile(), TestPki.Identity.keyFile(server).toFile());
    if (mutualToControlPlane) {
      serverTls.trustManager(caFile.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    controlPlane = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), serverTls.build())
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
    String clientFiles = mutualToControlPlane
        ? ", \"certificate_file\": \"%s\", \"private_key_file\": \"%s\"".formatted(
            TestPki.Identity.certificateFile(client), TestPki.Identity.keyFile(client))
        : "";
    System.setProperty(BOOTSTRAP_PROPERTY, """
        {"xds_servers": [{"server_uri": "127.0.0.1:%d",
           "channel_creds": [{"type": "tls", "config": {"ca_certificate_file": "%s"%s}}]}],
         "node": {"id": "%s", "cluster": "jxds-test"},
         "certificate_providers": {"default": {"plugin_name": "file_watcher", "config": {
           "certificate_file": "%s", "private_key_file": "%s", "ca_certificate_file": "%s"}}},
         "jxds": {"client_retention": "0s"}}
        """.formatted(controlPlane.getPort(), caFile, clientFiles, NODE, TestPki.Identity.certificateFile(client),
        TestPki.Identity.keyFile(client), caFile));
    channel = Grpc.newChannelBuilder("xds-cluster:///payments", XdsClusterCredentials.create()).build();

    awaitCalls(channel, 10, Duration.ofSeconds(15), w -> w.getOrDefault("a", 0) == 10);
    assertThat(a.clientSubjects()).containsOnly("CN=client");
  }

  private static Snapshot snapshot(String version, TestBackend a, long weightA, TestBackend b, long weightB) {
    Cluster cluster = XdsResources.cluster("payments").edsServiceName("payments-eds").build();
    ClusterLoadAssignment endpoints = XdsResources.endpoints("payments-eds")
        // Weight 0 drops a locality (the decoder ignores it), which is how "a" leaves in step 3.
        .locality("r", "a", "", l -> l.priority(0).weight(weightA).endpoint("127.0.0.1", a.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(weightB).endpoint("127.0.0.1", b.port(), HEALTHY))
        .build();
    return Snapshot.create(List.of(cluster), List.of(endpoints), List.of(), List.of(), List.of(), version);
  }

  private static Server start(int port, SimpleCache<String> cache) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
  }

  private static String bootstrap(int port) {
    return """
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}]}],
         "node": {"id": "%s", "cluster": "jxds-test"},
         "jxds": {"client_retention": "0s"}}
        """.formatted(port, NODE);
  }
}
