package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.api.ResourceState;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** gRFC A78's xDS client metrics, read back through the OpenTelemetry SDK. */
class XdsClientMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final AttributeKey<String> TARGET = AttributeKey.stringKey("grpc.target");
  private static final AttributeKey<String> SERVER = AttributeKey.stringKey("grpc.xds.server");
  private static final AttributeKey<String> TYPE = AttributeKey.stringKey("grpc.xds.resource_type");
  private static final AttributeKey<String> AUTHORITY = AttributeKey.stringKey("grpc.xds.authority");
  private static final AttributeKey<String> CACHE_STATE = AttributeKey.stringKey("grpc.xds.cache_state");
  private static final String CLUSTER_TYPE = "envoy.config.cluster.v3.Cluster";
  private static final String ENDPOINTS_TYPE = "envoy.config.endpoint.v3.ClusterLoadAssignment";

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private ManagedChannel channel;
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
  }

  @Test
  void countsValidAndInvalidResourcesAndReportsCacheStatesAndConnection() {
    ads.server().setClusters(
        XdsResources.cluster("good").build(), XdsResources.cluster("bad").edsConfigPath("/etc/eds.yaml").build());
    channel = ads.server().newClientChannel();
    String server = channel.authority();
    client = XdsClientBuilder.forChannel(channel)
        .node(Node.newBuilder().setId("metrics").build())
        .openTelemetry(metrics.openTelemetry())
        .build();
    client.watchCluster("good", new RecordingWatcher<>(), Runnable::run);
    client.watchCluster("bad", new RecordingWatcher<>(), Runnable::run);
    client.watchEndpoints("pending", new RecordingWatcher<>(), Runnable::run);
    ads.server().requests().awaitNack(CLUSTER_TYPE_URL, WAIT);
    Attributes clusters = Attributes.of(TARGET, "*", SERVER, server, TYPE, CLUSTER_TYPE);
    // Every CDS response holds "good" (state of the world) and is answered by one ACK or NACK; each
    // one that also holds "bad" is NACKed. Responses can cross the client's requests (the server
    // then records the answer as stale), so answers are counted by their distinct response nonces.
    // The resources gauge reads the status snapshot, which is published a little after a change.
    Map<Attributes, Long> cacheStates = Map.of(
        resources(CLUSTER_TYPE, "acked"), 1L,
        resources(CLUSTER_TYPE, "nacked"), 1L,
        resources(ENDPOINTS_TYPE, "requested"), 1L);
    Poll.until("every CDS response counted", () -> metrics.value("grpc.xds_client.resource_updates_valid",
        clusters) == answeredResponses(false) && client.status().connected()
        && metrics.points("grpc.xds_client.resources").equals(cacheStates));

    assertThat(answeredResponses(false)).isPositive();
    assertThat(answeredResponses(true)).isPositive();
    assertThat(metrics.value("grpc.xds_client.resource_updates_invalid", clusters))
        .isEqualTo(answeredResponses(true));
    assertThat(metrics.value("grpc.xds_client.connected", Attributes.of(TARGET, "*", SERVER, server)))
        .isEqualTo(1);
    assertThat(metrics.points("grpc.xds_client.resources")).isEqualTo(cacheStates);
    assertThat(metrics.points("grpc.xds_client.server_failure")).isEmpty();
  }

  /**
   * CDS responses the client answered: each answer (ACK, NACK, or either one crossed by a newer
   * response) carries its response's nonce, and a later subscription change repeats the last one.
   */
  private long answeredResponses(boolean nackedOnly) {
    return ads.server().requests().ofType(CLUSTER_TYPE_URL).stream()
        .map(RecordedRequest::raw)
        .filter(r -> !r.getResponseNonce().isEmpty() && (!nackedOnly || r.hasErrorDetail()))
        .map(r -> r.getResponseNonce())
        .distinct()
        .count();
  }

  @Test
  void serverThatCannotBeReachedCountsOneFailure() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = free.getLocalPort();
    }
    String target = "127.0.0.1:" + port;
    client = XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .openTelemetry(metrics.openTelemetry())
        .build();
    client.watchCluster("payments", new RecordingWatcher<>(), Runnable::run);

    Attributes attributes = Attributes.of(TARGET, "*", SERVER, target);
    Poll.until("a failure counted", () -> metrics.value("grpc.xds_client.server_failure", attributes) == 1);
    assertThat(metrics.value("grpc.xds_client.connected", attributes)).isZero();
  }

  @Test
  void pooledClientsRecordIntoThePoolsOpenTelemetry() throws Exception {
    FakeAdsServer loopback = FakeAdsServer.loopback().start(); // a pool needs a bootstrap with a real target
    loopback.setClusters(XdsResources.cluster("good").build());
    XdsClientPool pool = new XdsClientPool(
        new BootstrapLoader(Map.of("jxds.bootstrapConfig", loopback.bootstrap().build())::get, k -> null),
        metrics.openTelemetry());
    try (XdsClientPool.Lease lease = pool.acquire()) {
      lease.watchCluster("good", new RecordingWatcher<>(), Runnable::run);
      Poll.until("good acked", () -> lease.status().resource(CLUSTER_TYPE_URL, "good")
          .map(r -> r.state() == ResourceState.ACKED).orElse(false));

      assertThat(metrics.points("grpc.xds_client.resources").keySet())
          .extracting(a -> a.get(CACHE_STATE)).containsExactly("acked");
    } finally {
      pool.closeAll();
      loopback.stop();
    }
  }

  private static Attributes resources(String type, String state) {
    return Attributes.of(TARGET, "*", AUTHORITY, "#old", CACHE_STATE, state, TYPE, type);
  }
}
