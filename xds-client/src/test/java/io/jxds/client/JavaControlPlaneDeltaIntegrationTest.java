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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Delta xDS against java-control-plane's delta server ({@code V3DiscoveryServer}'s
 * DeltaAggregatedResources, SimpleCache delta watches) on a loopback port. That server treats
 * Cluster and Listener as wildcard types in delta ADS: it sends every cluster of the snapshot
 * whatever the client subscribed, which the client skips unvalidated (gRFC A46) and ACKs.
 */
class JavaControlPlaneDeltaIntegrationTest {
  private static final String GROUP = "jxds-delta";
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

  private static Snapshot snapshot(String version, int clusters, String endpointIp) {
    List<Cluster> cds = new ArrayList<>();
    List<ClusterLoadAssignment> eds = new ArrayList<>();
    for (int i = 0; i < clusters; i++) {
      cds.add(XdsResources.cluster("c" + i).build());
      eds.add(XdsResources.endpoints("c" + i)
          .locality("eu", "eu-1a", "", l -> l.endpoint(endpointIp, 8080, HealthStatus.HEALTHY))
          .build());
    }
    return Snapshot.create(cds, eds, List.of(), List.of(), List.of(), version);
  }

  @Test
  void snapshotsReachWatchersOverDeltaAndOnlyChangesFollow() throws IOException {
    SimpleCache<String> cache = new SimpleCache<>(node -> node.getId().equals("app-1") ? GROUP : "other");
    cache.setSnapshot(GROUP, snapshot("1", 3, "10.0.0.1"));
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
    client = XdsClientBuilder.forTarget("127.0.0.1:" + server.getPort(), InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("app-1").build())
        .deltaXds(true)
        .build();

    RecordingWatcher<ClusterUpdate> cluster = new RecordingWatcher<>();
    RecordingWatcher<EndpointsUpdate> endpoints = new RecordingWatcher<>();
    client.watchCluster("c1", cluster, DIRECT);
    client.watchEndpoints("c1", endpoints, DIRECT);
    Poll.until("first snapshot", () -> cluster.updates().size() == 1 && endpoints.updates().size() == 1);
    Poll.until("connected", () -> client.status().connected());
    // Only the watched names are in the status, though the server sent every cluster.
    assertThat(client.status().resources()).hasSize(2);
    assertThat(client.status().resource(ResourceTypes.CLUSTER_TYPE_URL, "c1").orElseThrow().state())
        .isEqualTo(ResourceState.ACKED);

    // New endpoints, same clusters: only the assignment changes.
    cache.setSnapshot(GROUP, snapshot("2", 3, "10.0.0.2"));
    Poll.until("second snapshot", () -> endpoints.updates().size() == 2);
    assertThat(endpoints.updates().get(1).localities().get(0).endpoints().get(0).address().getAddress()
        .getHostAddress()).isEqualTo("10.0.0.2");
    assertThat(cluster.updates()).hasSize(1);

    // A name subscribed later is served on the same stream; a cluster too, which the server sent
    // (wildcard) before it was watched and will not send again.
    RecordingWatcher<EndpointsUpdate> other = new RecordingWatcher<>();
    client.watchEndpoints("c2", other, DIRECT);
    Poll.until("later subscription", () -> other.updates().size() == 1);
    RecordingWatcher<ClusterUpdate> otherCluster = new RecordingWatcher<>();
    client.watchCluster("c2", otherCluster, DIRECT);
    Poll.until("later cluster", () -> otherCluster.updates().size() == 1);
    assertThat(client.status().resource(ResourceTypes.ENDPOINTS_TYPE_URL, "c2").orElseThrow().state())
        .isEqualTo(ResourceState.ACKED);
  }
}
