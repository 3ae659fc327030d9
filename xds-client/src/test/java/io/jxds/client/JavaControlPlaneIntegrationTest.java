package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceTypes;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real control plane: java-control-plane's SimpleCache and V3DiscoveryServer
 * on a loopback Netty port. Watches only names present in the snapshot: SimpleCache in ADS mode
 * withholds a whole type while any requested name is missing.
 */
class JavaControlPlaneIntegrationTest {
  private static final String GROUP = "jxds-test";
  private static final Executor DIRECT = Runnable::run;

  private Server server;
  private DefaultXdsClient client;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private Server start(int port, SimpleCache<String> cache) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
  }

  private static Snapshot snapshot(String version, String endpointIp) {
    Cluster cluster = XdsResources.cluster("payments").edsServiceName("payments-eds").build();
    ClusterLoadAssignment cla =
        XdsResources.endpoints("payments-eds")
            .locality("eu", "eu-1a", "", l -> l.endpoint(endpointIp, 8080, HealthStatus.HEALTHY))
            .build();
    return Snapshot.create(List.of(cluster), List.of(cla), List.of(), List.of(), List.of(), version);
  }

  @Test
  void snapshotsReachWatchersAndAServerRestartKeepsTheCache() throws Exception {
    // The node is hashed on every request: a client dropping it would fall into another group.
    SimpleCache<String> cache = new SimpleCache<>(node -> node.getId().equals("app-1") ? GROUP : "other");
    cache.setSnapshot(GROUP, snapshot("1", "10.0.0.1"));
    server = start(0, cache);
    int port = server.getPort();

    client =
        XdsClientBuilder.forTarget("127.0.0.1:" + port, InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("app-1").build())
            .build();
    RecordingWatcher<TestCluster> clusterWatcher = new RecordingWatcher<>();
    RecordingWatcher<TestEndpoints> endpointsWatcher = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "payments", clusterWatcher, DIRECT);
    client.watch(TestTypes.ENDPOINTS, "payments-eds", endpointsWatcher, DIRECT);

    Await.until("first snapshot", () -> endpointsWatcher.updates().size() == 1 && clusterWatcher.updates().size() == 1);
    assertThat(clusterWatcher.updates().get(0)).isEqualTo(new TestCluster("payments", "payments-eds"));
    assertThat(endpointsWatcher.updates().get(0).addresses()).containsExactly("10.0.0.1:8080");
    Await.until("connected", () -> client.status().connected());
    assertThat(client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "payments").orElseThrow().version()).isEqualTo("1");

    cache.setSnapshot(GROUP, snapshot("2", "10.0.0.2"));
    Await.until("second snapshot", () -> endpointsWatcher.updates().size() == 2);
    assertThat(endpointsWatcher.updates().get(1).addresses()).containsExactly("10.0.0.2:8080");
    assertThat(clusterWatcher.updates()).hasSize(1); // the cluster did not change

    // The control plane goes away: watchers keep their data and hear nothing.
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    Await.until("disconnected", () -> !client.status().connected());
    assertThat(clusterWatcher.events()).hasSize(1);
    assertThat(endpointsWatcher.events()).hasSize(2);
    RecordingWatcher<TestEndpoints> whileAway = new RecordingWatcher<>();
    client.watch(TestTypes.ENDPOINTS, "payments-eds", whileAway, DIRECT);
    assertThat(whileAway.updates()).hasSize(1).first().extracting(TestEndpoints::addresses).isEqualTo(List.of("10.0.0.2:8080"));

    // It comes back (a fresh process: new cache, newer snapshot) on the same port.
    SimpleCache<String> restarted = new SimpleCache<>(node -> node.getId().equals("app-1") ? GROUP : "other");
    restarted.setSnapshot(GROUP, snapshot("3", "10.0.0.3"));
    server = start(port, restarted);
    Await.until("update after restart", Duration10s(), () -> endpointsWatcher.updates().size() == 3);
    assertThat(endpointsWatcher.updates().get(2).addresses()).containsExactly("10.0.0.3:8080");
    assertThat(clusterWatcher.events()).hasSize(1);
    assertThat(client.status().connected()).isTrue();
    assertThat(client.status().resource(ResourceTypes.ENDPOINTS_TYPE_URL, "payments-eds").orElseThrow().state())
        .isEqualTo(ResourceState.ACKED);
  }

  private static java.time.Duration Duration10s() {
    return java.time.Duration.ofSeconds(10);
  }

  @Test
  void everyThreadTheClientUsesIsADaemon() throws Exception {
    SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
    cache.setSnapshot(GROUP, snapshot("1", "10.0.0.1"));
    server = start(0, cache);
    client =
        XdsClientBuilder.forTarget("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
            .node(Node.newBuilder().setId("app-1").build())
            .build();
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "payments", w, DIRECT);
    Await.until("cluster", () -> w.updates().size() == 1);
    Thread[] threads = new Thread[Thread.activeCount() * 2 + 10];
    int n = Thread.enumerate(threads);
    for (int i = 0; i < n; i++) {
      Thread t = threads[i];
      if (t.getName().startsWith("grpc-") || t.getName().startsWith("jxds")) {
        assertThat(t.isDaemon()).as(t.getName()).isTrue();
      }
    }
  }
}
