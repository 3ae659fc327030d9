package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.client.internal.ClientInternals;
import io.jxds.client.internal.lrs.ClusterLoadStats;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An endpoint that an EDS update moves from one locality to another, in the same priority: from
 * then on its RPCs count in its new locality, in load reports (the client's LRS counters) and in
 * the {@code jxds.lb.locality_picks} metric, whatever the policy. Under ring hash the endpoint
 * keeps its subchannel (and connection); under round robin and least request it leaves one
 * locality's endpoint balancer for another's.
 */
class EndpointLocalityMoveEndToEndTest {
  private static final LocalityId ZONE_A = new LocalityId("r", "a", "");
  private static final LocalityId ZONE_B = new LocalityId("r", "b", "");
  private static final int RPCS = 300;

  private final FakeAdsServer ads = FakeAdsServer.loopback().start();
  private final TestBackends backends = new TestBackends();
  private final InMemoryMetrics metrics = new InMemoryMetrics();
  private final DefaultXdsClient client = XdsClientBuilder.forTarget(ads.serverUri(), InsecureChannelCredentials
      .create()).openTelemetry(metrics.openTelemetry()).build();
  private final ManagedChannel channel = Grpc.newChannelBuilder(XdsClusterPolicy.target("payments"),
          InsecureChannelCredentials.create())
      .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
      .build();

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    client.close();
    backends.close();
    ads.stop();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Cluster.LbPolicy.class, names = {"RING_HASH", "ROUND_ROBIN", "LEAST_REQUEST"})
  void movedEndpointsRpcsCountInItsNewLocality(Cluster.LbPolicy policy) throws Exception {
    TestBackend x = backends.start("x");
    TestBackend z = backends.start("z");
    TestBackend y = backends.start("y");
    TestBackend w = backends.start("w");
    ads.setClusters(XdsResources.cluster("payments").lrsSelf().lbPolicy(policy).build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1)
            .endpoint("127.0.0.1", x.port(), HEALTHY)
            .endpoint("127.0.0.1", z.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", y.port(), HEALTHY))
        .build());
    BackendCalls.awaitCalls(
        channel, 60, Duration.ofSeconds(10), c -> c.keySet().containsAll(java.util.List.of("x", "y", "z")));
    int xConnections = x.connectionsOpened();

    // x moves from zone a to zone b; w joins zone b, so its first answer shows the update applied.
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", z.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(1)
            .endpoint("127.0.0.1", x.port(), HEALTHY)
            .endpoint("127.0.0.1", y.port(), HEALTHY)
            .endpoint("127.0.0.1", w.port(), HEALTHY))
        .build());
    BackendCalls.awaitCalls(channel, 60, Duration.ofSeconds(10), c -> c.containsKey("w") && c.containsKey("x"));
    ClusterLoadStats load = ClientInternals.loadStats(client).cluster("payments", "payments");
    long issuedA = load.locality(ZONE_A).issued();
    long issuedB = load.locality(ZONE_B).issued();
    long picksA = picks(ZONE_A);
    long picksB = picks(ZONE_B);

    Map<String, Integer> answered = BackendCalls.calls(channel, RPCS);

    assertThat(answered).doesNotContainKey(BackendCalls.FAILED);
    assertThat(answered.get("x")).as("x still serves").isPositive();
    long inA = answered.getOrDefault("z", 0);
    long inB = answered.getOrDefault("x", 0) + answered.getOrDefault("y", 0) + answered.getOrDefault("w", 0);
    assertThat(load.locality(ZONE_A).issued() - issuedA).as("LRS issued in zone a, answers %s", answered)
        .isEqualTo(inA);
    assertThat(load.locality(ZONE_B).issued() - issuedB).as("LRS issued in zone b, answers %s", answered)
        .isEqualTo(inB);
    assertThat(picks(ZONE_A) - picksA).as("locality_picks in zone a").isEqualTo(inA);
    assertThat(picks(ZONE_B) - picksB).as("locality_picks in zone b").isEqualTo(inB);
    if (policy == Cluster.LbPolicy.RING_HASH) {
      assertThat(x.connectionsOpened()).as("ring hash keeps x's subchannel").isEqualTo(xConnections);
    }
  }

  private long picks(LocalityId locality) {
    return metrics.value("jxds.lb.locality_picks", Attributes.of(
        AttributeKey.stringKey("grpc.target"), "xds-cluster:///payments",
        AttributeKey.stringKey("jxds.cluster"), "payments",
        AttributeKey.stringKey("grpc.lb.locality"), locality.region() + "/" + locality.zone() + "/"
            + locality.subZone()));
  }
}
