package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.client.bootstrap.ServerInfo;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Federation (gRFC A47) over one cache: a server named by several authorities' lists has one
 * stream, which carries the names of every authority whose fallback chain (gRFC A71) has it
 * active, and a state-of-the-world response concludes absence only for the names its stream
 * requested (ARCHITECTURE.md, "The xDS client").
 */
class SharedStreamFederationTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String CDS = "envoy.config.cluster.v3.Cluster";
  private static final String A = "xdstp://a.example/" + CDS + "/payments";
  private static final String B = "xdstp://b.example/" + CDS + "/ledger";
  private static final AttributeKey<String> TARGET = AttributeKey.stringKey("grpc.target");
  private static final AttributeKey<String> SERVER = AttributeKey.stringKey("grpc.xds.server");
  private static final AttributeKey<String> TYPE = AttributeKey.stringKey("grpc.xds.resource_type");

  private final FakeAdsServer s1 = FakeAdsServer.loopback();
  private final FakeAdsServer s2 = FakeAdsServer.loopback();
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    s1.stop();
    s2.stop();
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(what, WAIT, condition);
  }

  private static String server(FakeAdsServer server) {
    return server(server, false);
  }

  private static String server(FakeAdsServer server, boolean delta) {
    return "{\"server_uri\": \"" + server.serverUri() + "\", \"channel_creds\": [{\"type\": \"insecure\"}],"
        + " \"server_features\": [" + (delta ? "\"" + ServerInfo.DELTA + "\"" : "") + "]}";
  }

  /** Top level and a.example: {@code aServers}; b.example: {@code bServers}. */
  private DefaultXdsClient client(String aServers, String bServers) throws Exception {
    return client(aServers, bServers, null);
  }

  /** The same, recording gRFC A78's metrics into {@code metrics} when not null. */
  private DefaultXdsClient client(String aServers, String bServers, InMemoryMetrics metrics) throws Exception {
    String json = """
        {
          "xds_servers": [A_SERVERS],
          "node": {"id": "federated"},
          "authorities": {
            "a.example": {"xds_servers": [A_SERVERS]},
            "b.example": {"xds_servers": [B_SERVERS]}
          }
        }
        """.replace("A_SERVERS", aServers).replace("B_SERVERS", bServers);
    XdsClientBuilder builder = XdsClientBuilder.fromBootstrap(BootstrapParser.parse(json, "test"));
    client = (metrics == null ? builder : builder.openTelemetry(metrics.openTelemetry())).build();
    return client;
  }

  /** gRFC A78's labels of a server's metrics, with the type's when {@code type} is not null. */
  private static Attributes labels(FakeAdsServer server, String type) {
    Attributes labels = Attributes.of(TARGET, "*", SERVER, server.serverUri());
    return type == null ? labels : labels.toBuilder().put(TYPE, type).build();
  }

  @ParameterizedTest(name = "delta {0}")
  @ValueSource(booleans = {false, true})
  void aServerInTwoAuthoritiesListsHasOneStreamForBoth(boolean delta) throws Exception {
    s1.setClusters(XdsResources.cluster(A).edsServiceName("a-from-s1").build(),
        XdsResources.cluster(B).edsServiceName("b-from-s1").build());
    s1.start();
    s2.start();
    client(server(s1, delta), server(s1, delta) + ", " + server(s2, delta));

    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both names served by s1", () -> a.updates().size() == 1 && b.updates().size() == 1);

    assertThat(a.updates().get(0).edsServiceName()).isEqualTo("a-from-s1");
    assertThat(b.updates().get(0).edsServiceName()).isEqualTo("b-from-s1");
    assertThat(s1.streams().count()).as("streams to s1, which both authorities list").isEqualTo(1);
    assertThat(s1.streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactlyInAnyOrder(A, B);
    assertThat(s2.streams().count()).as("streams to s2, b.example's idle fallback").isZero();
    assertThat(client.status().resources()).hasSize(2);
  }

  @ParameterizedTest(name = "delta {0}")
  @ValueSource(booleans = {false, true})
  void anAuthorityFallsBackAloneAndComesBackToTheSharedStream(boolean delta) throws Exception {
    s1.setClusters(XdsResources.cluster(A).edsServiceName("a-from-s1").build(),
        XdsResources.cluster(B).edsServiceName("b-from-s1").build());
    s2.setClusters(XdsResources.cluster(B).edsServiceName("b-from-s2").build());
    s1.start();
    s2.start();
    client(server(s1, delta), server(s1, delta) + ", " + server(s2, delta));
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    await("a.example served by s1", () -> a.updates().size() == 1);

    s1.stop();
    // gRFC A71: b.example's name knows nothing while its first server cannot be reached: it falls
    // back to s2, which is asked for b.example's name only. a.example has no fallback, and its
    // name keeps its value: its watcher hears nothing (gRFC A57, a failure reaches only watchers
    // without data).
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(B, b, Runnable::run);
    await("b.example served by its fallback", () -> b.updates().size() == 1);
    assertThat(b.updates().get(0).edsServiceName()).isEqualTo("b-from-s2");
    assertThat(s2.streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly(B);
    assertThat(a.events()).as("a.example's watcher while s1 is down").hasSize(1);

    s1.start();
    await("b.example back on s1", () -> b.updates().size() == 2);
    assertThat(b.updates().get(1).edsServiceName()).isEqualTo("b-from-s1");
    s2.streams().awaitCount(0, WAIT);
    s1.streams().awaitCount(1, WAIT);
    await("s1's one stream carries both names",
        () -> s1.streams().subscribedNames(CLUSTER_TYPE_URL).size() == 2);
    assertThat(s1.streams().count()).isEqualTo(1);
    assertThat(b.errors()).isEmpty();
    assertThat(a.errors()).isEmpty();
    assertThat(a.absences()).isEmpty();
    assertThat(a.updates().get(a.updates().size() - 1).edsServiceName()).isEqualTo("a-from-s1");
  }

  @ParameterizedTest(name = "delta {0}")
  @ValueSource(booleans = {false, true})
  void aFallbackServingAnotherAuthorityAlreadyTakesTheNamesOnItsOneStream(boolean delta) throws Exception {
    s1.setClusters(XdsResources.cluster(A).edsServiceName("a-from-s1").build(),
        XdsResources.cluster(B).edsServiceName("b-from-s1").build());
    s2.setClusters(XdsResources.cluster(B).edsServiceName("b-from-s2").build());
    s2.start(); // binds the port the bootstrap names
    s2.stop();
    s1.start();
    client(server(s1, delta), server(s2, delta) + ", " + server(s1, delta));
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    await("a.example served by s1", () -> a.updates().size() == 1);

    // b.example's first server is down: it falls back to s1, whose one stream now carries B too.
    client.watchCluster(B, b, Runnable::run);
    await("b.example served by its fallback", () -> b.updates().size() == 1);
    assertThat(b.updates().get(0).edsServiceName()).isEqualTo("b-from-s1");
    await("s1's stream carries both names", () -> s1.streams().subscribedNames(CLUSTER_TYPE_URL).size() == 2);
    assertThat(s1.streams().count()).isEqualTo(1);

    // s2 back: b.example leaves its fallback; s1's stream stays, for a.example's name only.
    s2.start();
    await("b.example back on s2", () -> b.updates().size() == 2);
    assertThat(b.updates().get(1).edsServiceName()).isEqualTo("b-from-s2");
    await("s1's stream carries A only", () -> s1.streams().subscribedNames(CLUSTER_TYPE_URL).equals(Set.of(A)));
    assertThat(s1.streams().count()).isEqualTo(1);
    assertThat(s2.streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly(B);
    assertThat(a.events()).hasSize(1);
    assertThat(b.errors()).isEmpty();
    assertThat(b.absences()).isEmpty();
  }

  @Test
  void aSharedServerGoingDownCountsOneServerFailure() throws Exception {
    // gRFC A78's server_failure counts a server going from working to failing: once, however many
    // authorities' chains hear it.
    InMemoryMetrics metrics = new InMemoryMetrics();
    s1.setClusters(XdsResources.cluster(A).build(), XdsResources.cluster(B).build());
    s1.start();
    s2.start();
    client(server(s1), server(s1) + ", " + server(s2), metrics);
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both served by s1", () -> a.updates().size() == 1 && b.updates().size() == 1);

    s1.stop();
    Attributes attributes = labels(s1, null);
    await("s1's failure counted", () -> metrics.value("grpc.xds_client.server_failure", attributes) >= 1);
    await("the client disconnected", () -> !client.status().connected());
    assertThat(metrics.value("grpc.xds_client.server_failure", attributes)).isEqualTo(1);
    assertThat(s2.streams().count()).as("every name is cached: no fallback").isZero();
  }

  @Test
  void anAuthoritysServerFailureIsCountedUnderThatServer() throws Exception {
    // gRFC A78 labels server_failure with the server that failed (grpc.xds.server), not the
    // client's first top-level server.
    InMemoryMetrics metrics = new InMemoryMetrics();
    s1.setClusters(XdsResources.cluster(A).build());
    s2.start(); // binds the port the bootstrap names
    s2.stop();
    s1.start();
    client(server(s1), server(s2), metrics);
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("a.example served, b.example's server failing", () -> a.updates().size() == 1 && !b.errors().isEmpty());

    assertThat(metrics.value("grpc.xds_client.server_failure", labels(s2, null))).isEqualTo(1);
    assertThat(metrics.value("grpc.xds_client.server_failure", labels(s1, null))).isZero();
  }

  @Test
  void eachServerReportsItsOwnConnectionAndResourceUpdates() throws Exception {
    // gRFC A78: grpc.xds_client.connected is one gauge per server the client talks to, and
    // resource_updates_valid is labelled with the server that sent the resources.
    InMemoryMetrics metrics = new InMemoryMetrics();
    s1.setClusters(XdsResources.cluster(A).build());
    s2.setClusters(XdsResources.cluster(B).build());
    s1.start();
    s2.start();
    client(server(s1), server(s2), metrics);
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both served", () -> a.updates().size() == 1 && b.updates().size() == 1);

    await("both servers connected", () -> metrics.value("grpc.xds_client.connected", labels(s1, null)) == 1
        && metrics.value("grpc.xds_client.connected", labels(s2, null)) == 1);
    assertThat(metrics.value("grpc.xds_client.resource_updates_valid", labels(s2, CDS))).as("sent by s2").isEqualTo(1);
    assertThat(metrics.value("grpc.xds_client.resource_updates_valid", labels(s1, CDS))).as("sent by s1").isEqualTo(1);
  }

  @Test
  void aStateOfTheWorldResponseDeletesOnlyTheNamesItsStreamRequested() throws Exception {
    s1.setClusters(XdsResources.cluster(A).edsServiceName("a1").build());
    s2.setClusters(XdsResources.cluster(B).edsServiceName("b1").build());
    s1.start();
    s2.start();
    client(server(s1), server(s2));
    RecordingWatcher<ClusterUpdate> a = new RecordingWatcher<>();
    RecordingWatcher<ClusterUpdate> b = new RecordingWatcher<>();
    client.watchCluster(A, a, Runnable::run);
    client.watchCluster(B, b, Runnable::run);
    await("both served", () -> a.updates().size() == 1 && b.updates().size() == 1);
    s1.requests().awaitAck(CLUSTER_TYPE_URL, s1.version(CLUSTER_TYPE_URL), WAIT);

    // s1's second response lacks B, which s1 was never asked for: B keeps its value. Nor does
    // the B that s1 sends unasked (xDS: a resource not requested is ignored) replace it.
    s1.setClusters(XdsResources.cluster(A).edsServiceName("a2").build());
    await("a.example's update", () -> a.updates().size() == 2);
    s1.requests().awaitAck(CLUSTER_TYPE_URL, s1.version(CLUSTER_TYPE_URL), WAIT);
    s1.putResources(CLUSTER_TYPE_URL, Map.of(B, XdsResources.cluster(B).edsServiceName("b-from-s1").build()));
    s1.requests().awaitAck(CLUSTER_TYPE_URL, s1.version(CLUSTER_TYPE_URL), WAIT);
    // s1's next response lacks A, which it was asked for: A was deleted (as with one server).
    s1.setClusters(XdsResources.cluster("unrelated").build());
    await("a.example's deletion", () -> a.absences().size() == 1);
    s1.requests().awaitAck(CLUSTER_TYPE_URL, s1.version(CLUSTER_TYPE_URL), WAIT);

    assertThat(b.absences()).as("B, served by s2, after s1's responses that lack it").isEmpty();
    assertThat(b.updates()).extracting(ClusterUpdate::edsServiceName).as("B, served by s2").containsExactly("b1");
    assertThat(s1.requests().ofType(CLUSTER_TYPE_URL))
        .allSatisfy(r -> assertThat(r.resourceNames()).containsOnly(A));
    assertThat(s2.requests().ofType(CLUSTER_TYPE_URL))
        .allSatisfy(r -> assertThat(r.resourceNames()).containsOnly(B));
  }
}
