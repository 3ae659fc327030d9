package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Federation (gRFC A47) with fallback (gRFC A71) on real loopback control planes: each authority
 * has its own fallback chain, and each server its own features, whichever authority or position
 * in a chain it has.
 */
class FederationFallbackTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String CDS = "envoy.config.cluster.v3.Cluster";
  private static final String A = "xdstp://a.example/" + CDS + "/payments";
  private static final String B = "xdstp://b.example/" + CDS + "/ledger";

  private final FakeAdsServer primaryA = FakeAdsServer.loopback();
  private final FakeAdsServer fallbackA = FakeAdsServer.loopback();
  private final FakeAdsServer serverB = FakeAdsServer.loopback();
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    primaryA.stop();
    fallbackA.stop();
    serverB.stop();
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(what, WAIT, condition);
  }

  private static String server(FakeAdsServer server, String features) {
    return "{\"server_uri\": \"" + server.serverUri() + "\", \"channel_creds\": [{\"type\": \"insecure\"}],"
        + " \"server_features\": [" + features + "]}";
  }

  /** a.example: primaryA then fallbackA (with {@code fallbackFeatures}); b.example: serverB. */
  private DefaultXdsClient client(String fallbackFeatures) throws Exception {
    String json = """
        {
          "xds_servers": [B],
          "node": {"id": "federated"},
          "authorities": {
            "a.example": {"xds_servers": [PRIMARY_A, FALLBACK_A]},
            "b.example": {}
          }
        }
        """.replace("PRIMARY_A", server(primaryA, ""))
        .replace("FALLBACK_A", server(fallbackA, fallbackFeatures))
        .replace("B]", server(serverB, "") + "]");
    client = XdsClientBuilder.fromBootstrap(BootstrapParser.parse(json, "test")).build();
    return client;
  }

  @Test
  void oneAuthorityFallsBackAndReturnsWhileTheOtherIsUntouched() throws Exception {
    primaryA.start(); // binds the port the bootstrap names
    primaryA.stop();
    primaryA.setClusters(XdsResources.cluster(A).edsServiceName("from-primary").build());
    fallbackA.setClusters(XdsResources.cluster(A).edsServiceName("from-fallback").build());
    fallbackA.start();
    serverB.setClusters(XdsResources.cluster(B).edsServiceName("from-b").build());
    serverB.start();
    client("");

    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("a.example served by its fallback, b.example by its server",
        () -> a.updates().size() == 1 && b.updates().size() == 1);
    assertThat(a.updates().get(0).edsServiceName()).isEqualTo("from-fallback");
    assertThat(a.errors()).as("the fallback answered: no error on the way").isEmpty();
    assertThat(fallbackA.requests().ofType(CLUSTER_TYPE_URL))
        .allSatisfy(r -> assertThat(r.resourceNames()).containsOnly(A));
    assertThat(serverB.requests().ofType(CLUSTER_TYPE_URL))
        .allSatisfy(r -> assertThat(r.resourceNames()).containsOnly(B));

    primaryA.start();
    await("a.example back on its primary", () -> a.updates().size() == 2);
    assertThat(a.updates().get(1).edsServiceName()).isEqualTo("from-primary");
    fallbackA.streams().awaitCount(0, WAIT);
    assertThat(primaryA.streams().count()).isEqualTo(1);
    assertThat(a.errors()).isEmpty();
    assertThat(a.absences()).isEmpty();

    // b.example never noticed: one stream throughout, one update, nothing else.
    assertThat(serverB.streams().count()).isEqualTo(1);
    assertThat(b.events()).hasSize(1);
    assertThat(primaryA.requests().ofType(CLUSTER_TYPE_URL))
        .allSatisfy(r -> assertThat(r.resourceNames()).containsOnly(A));

    // The cache went along: a new watcher of each name hears the current value at once.
    RecordingWatcher<ClusterUpdate> againA = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> againB = new RecordingWatcher<>();
    client.watchCluster(A, againA, Runnable::run);
    client.watchCluster(B, againB, Runnable::run);
    await("cached values", () -> againA.updates().size() == 1 && againB.updates().size() == 1);
    assertThat(againA.updates().get(0).edsServiceName()).isEqualTo("from-primary");
    assertThat(againB.updates().get(0).edsServiceName()).isEqualTo("from-b");
  }

  @Test
  void aFallbackServersIgnoreResourceDeletionAppliesWhileItServes() throws Exception {
    // gRFC A53 is a feature of each server: the fallback has it, its primary and b.example's do not.
    primaryA.start();
    primaryA.stop();
    fallbackA.setClusters(XdsResources.cluster(A).build());
    fallbackA.start();
    serverB.setClusters(XdsResources.cluster(B).build());
    serverB.start();
    client("\"ignore_resource_deletion\"");
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both", () -> a.updates().size() == 1 && b.updates().size() == 1);
    fallbackA.requests().awaitAck(CLUSTER_TYPE_URL, fallbackA.version(CLUSTER_TYPE_URL), WAIT);
    serverB.requests().awaitAck(CLUSTER_TYPE_URL, serverB.version(CLUSTER_TYPE_URL), WAIT);

    fallbackA.setClusters(XdsResources.cluster("unrelated").build());
    serverB.setClusters(XdsResources.cluster("unrelated").build());
    await("b.example's deletion", () -> b.absences().size() == 1);
    fallbackA.requests().awaitAck(CLUSTER_TYPE_URL, fallbackA.version(CLUSTER_TYPE_URL), WAIT);
    assertThat(a.absences()).as("the fallback serving a.example ignores deletions").isEmpty();
    assertThat(client.status().resources()).anySatisfy(r -> {
      assertThat(r.name()).isEqualTo(A);
      assertThat(r.state()).isEqualTo(io.jxds.api.ResourceState.ACKED);
    });
  }

  @Test
  void authoritiesWhoseServersDifferInFeaturesEachGetTheirOwn() throws Exception {
    // a.example's only reachable server speaks delta and ignores deletions; b.example's neither.
    primaryA.start();
    primaryA.stop();
    fallbackA.setClusters(XdsResources.cluster(A).build());
    fallbackA.start();
    serverB.setClusters(XdsResources.cluster(B).build());
    serverB.start();
    client("\"ignore_resource_deletion\", \"jxds.delta\"");
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both", () -> a.updates().size() == 1 && b.updates().size() == 1);
    assertThat(fallbackA.requests().delta()).as("a.example's fallback speaks delta").isNotEmpty();
    assertThat(serverB.requests().delta()).as("b.example's server speaks state of the world").isEmpty();

    Poll.until("a.example's ACK", WAIT, () -> fallbackA.requests().delta().size() >= 2);
    int before = fallbackA.requests().delta().size();
    fallbackA.removeClusters(A);
    serverB.removeClusters(B);
    await("b.example's deletion", () -> b.absences().size() == 1);
    Poll.until("the removal ACKed by a.example's client", WAIT, () -> fallbackA.requests().delta().size() > before);
    assertThat(a.absences()).as("removed_resources ignored for a.example").isEmpty();
  }
}
