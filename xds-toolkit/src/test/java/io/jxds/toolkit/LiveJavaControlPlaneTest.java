package io.jxds.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live mode against a real control plane: java-control-plane's {@code Snapshot}, served by its
 * V3DiscoveryServer over ADS on a loopback port, fetched through a jxds client, gets the verdicts
 * and the plan of the same resources checked without a server.
 */
class LiveJavaControlPlaneTest {
  private static final String GROUP = "toolkit";

  private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
  private Server controlPlane;

  @BeforeEach
  void start() throws Exception {
    controlPlane = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    controlPlane.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aSnapshotServedByJavaControlPlaneIsCheckedAndPlannedAsWithoutAServer() throws Exception {
    cache.setSnapshot(GROUP, io.envoyproxy.controlplane.cache.v3.Snapshot.create(
        LiveResources.clusters(), LiveResources.endpoints(), List.of(LiveResources.listener()),
        List.of(LiveResources.routes()), List.of(), "7"));

    String target = "127.0.0.1:" + controlPlane.getPort();

    TrafficPlan live;
    // docs/toolkit.md:begin
    try (DefaultXdsClient client = XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("ci").build())
        .build()) {
      live = Snapshot.fetchListener(client, "svc", Duration.ofSeconds(10)).plan();
    }
    // docs/toolkit.md:end

    TrafficPlan offline = Snapshot.of(LiveResources.all()).plan();
    assertThat(LiveCheckTest.verdicts(live.check())).isEqualTo(LiveCheckTest.verdicts(offline.check())).hasSize(6);
    assertThat(live.check().resources()).allSatisfy(v -> assertThat(v.source()).isEqualTo("live version 7"));
    assertThat(live.check().notes()).isEmpty();
    assertThat(live.clusters()).isEqualTo(offline.clusters());
    assertThat(live.listeners()).isEqualTo(offline.listeners());
    assertThat(live.request("svc", "/pkg.S/M", java.util.Map.of()))
        .isEqualTo(offline.request("svc", "/pkg.S/M", java.util.Map.of()));
  }
}
