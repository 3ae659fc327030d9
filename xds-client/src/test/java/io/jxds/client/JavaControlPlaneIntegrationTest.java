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
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.testing.Poll;
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
    RecordingWatcher<ClusterUpdate> clusterWatcher = new RecordingWatcher<>();
    RecordingWatcher<EndpointsUpdate> endpointsWatcher = new RecordingWatcher<>();
    client.watchCluster("payments", clusterWatcher, DIRECT);
    client.watchEndpoints("payments-eds", endpointsWatcher, DIRECT);

    Poll.until("first snapshot", () -> endpointsWatcher.updates().size() == 1 && clusterWatcher.updates().size() == 1);
    assertThat(clusterWatcher.updates().get(0).edsServiceName()).isEqualTo("payments-eds");
    assertThat(addresses(endpointsWatcher.updates().get(0))).containsExactly("10.0.0.1:8080");
    Poll.until("connected", () -> client.status().connected());
    assertThat(client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "payments").orElseThrow().version())
        .isEqualTo("1");

    cache.setSnapshot(GROUP, snapshot("2", "10.0.0.2"));
    Poll.until("second snapshot", () -> endpointsWatcher.updates().size() == 2);
    assertThat(addresses(endpointsWatcher.updates().get(1))).containsExactly("10.0.0.2:8080");
    assertThat(clusterWatcher.updates()).hasSize(1); // the cluster did not change

    // The control plane goes away: watchers keep their data and hear nothing.
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    Poll.until("disconnected", () -> !client.status().connected());
    assertThat(clusterWatcher.events()).hasSize(1);
    assertThat(endpointsWatcher.events()).hasSize(2);
    RecordingWatcher<EndpointsUpdate> whileAway = new RecordingWatcher<>();
    client.watchEndpoints("payments-eds", whileAway, DIRECT);
    // watch() hands over to the client's sync context; no network round trip is involved.
    Poll.until("cached endpoints", java.time.Duration.ofSeconds(5), () -> whileAway.updates().size() == 1);
    assertThat(addresses(whileAway.updates().get(0))).containsExactly("10.0.0.2:8080");

    // It comes back (a fresh process: new cache, newer snapshot) on the same port.
    SimpleCache<String> restarted = new SimpleCache<>(node -> node.getId().equals("app-1") ? GROUP : "other");
    restarted.setSnapshot(GROUP, snapshot("3", "10.0.0.3"));
    server = start(port, restarted);
    Poll.until("update after restart", tenSeconds(), () -> endpointsWatcher.updates().size() == 3);
    assertThat(addresses(endpointsWatcher.updates().get(2))).containsExactly("10.0.0.3:8080");
    assertThat(clusterWatcher.events()).hasSize(1);
    assertThat(client.status().connected()).isTrue();
    assertThat(client.status().resource(ResourceTypes.ENDPOINTS_TYPE_URL, "payments-eds").orElseThrow().state())
        .isEqualTo(ResourceState.ACKED);
  }

  private static List<String> addresses(EndpointsUpdate update) {
    return update.localities().stream()
        .flatMap(l -> l.endpoints().stream())
        .map(e -> e.address().getAddress().getHostAddress() + ":" + e.address().getPort())
        .toList();
  }

  private static java.time.Duration tenSeconds() {
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
    RecordingWatcher<ClusterUpdate> w = new RecordingWatcher<>();
    client.watchCluster("payments", w, DIRECT);
    Poll.until("cluster", () -> w.updates().size() == 1);
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
