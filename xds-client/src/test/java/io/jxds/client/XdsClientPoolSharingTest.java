package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.WatchHandle;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A pooled client re-acquired within its retention keeps its cache and its stream. */
class XdsClientPoolSharingTest {
  private final AtomicInteger streamsOpened = new AtomicInteger();
  private Server server;
  private String bootstrap;

  @BeforeEach
  void startControlPlane() throws Exception {
    SimpleCache<String> cache = new SimpleCache<>(node -> "g");
    cache.setSnapshot(
        "g",
        Snapshot.create(
            List.of(XdsResources.cluster("payments").build()), List.of(), List.of(), List.of(), List.of(), "1"));
    DiscoveryServerCallbacks callbacks =
        new DiscoveryServerCallbacks() {
          @Override
          public void onStreamOpen(long streamId, String typeUrl) {
            streamsOpened.incrementAndGet();
          }

          @Override
          public void onV3StreamRequest(long streamId, DiscoveryRequest request) {}

          @Override
          public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {}
        };
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(new V3DiscoveryServer(callbacks, cache).getAggregatedDiscoveryServiceImpl())
            .build()
            .start();
    bootstrap =
        "{\"xds_servers\":[{\"server_uri\":\"127.0.0.1:"
            + server.getPort()
            + "\",\"channel_creds\":[{\"type\":\"insecure\"}]}],\"node\":{\"id\":\"pooled\"}}";
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void reacquiredWithinRetentionGivesTheSameClientWithItsCacheAndNoNewStream() throws Exception {
    XdsClientPool pool =
        new XdsClientPool(
            new BootstrapLoader(Map.<String, String>of()::get, Map.of("GRPC_XDS_BOOTSTRAP_CONFIG", bootstrap)::get),
            null,
            Clock.systemUTC(),
            new Random(1));
    XdsClientPool.Lease lease = pool.acquire();
    RecordingWatcher<TestCluster> first = new RecordingWatcher<>();
    WatchHandle handle = lease.client().watch(TestTypes.CLUSTER, "payments", first, Runnable::run);
    Poll.until("cluster", () -> first.updates().size() == 1);
    handle.cancel();
    lease.close(); // count zero: retained for 5 minutes

    XdsClientPool.Lease again = pool.acquire();
    assertThat(again.client()).isSameAs(lease.client());
    RecordingWatcher<TestCluster> second = new RecordingWatcher<>();
    again.client().watch(TestTypes.CLUSTER, "payments", second, Runnable::run);
    // From the cache, without a round trip (watch() hands over to the client's sync context, which
    // another thread may be draining, so allow it a moment).
    Poll.until("cached value", java.time.Duration.ofSeconds(5), () -> second.updates().size() == 1);
    assertThat(second.updates()).containsExactly(new TestCluster("payments", ""));
    assertThat(streamsOpened.get()).isEqualTo(1);
    again.close();
    pool.closeAll();
    assertThat(((DefaultXdsClient) again.client()).isClosed()).isTrue();
  }
}
