package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The balancer's metrics from a real channel: the client handed in records into an OpenTelemetry
 * SDK, and the channel's balancers record into the same one.
 */
class BalancerMetricsEndToEndTest {
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

  @Test
  void dropsRefusalsPicksInFlightAndServingPriorityAreRecorded() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    ads.setClusters(XdsResources.cluster("payments").maxRequests(1).build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .drop("throttle", 20, FractionalPercent.DenominatorType.HUNDRED)
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", b.port(), HEALTHY))
        .build());
    BackendCalls.awaitCalls(channel, 40, Duration.ofSeconds(10), w -> w.containsKey("a") && w.containsKey("b"));
    Attributes cluster = Attributes.of(AttributeKey.stringKey("grpc.target"), "xds-cluster:///payments",
        AttributeKey.stringKey("jxds.cluster"), "payments");
    Attributes throttle = cluster.toBuilder().put("jxds.drop_category", "throttle").build();
    long dropsBefore = metrics.value("jxds.lb.rpcs_dropped", throttle);
    long picksBefore = picks();

    long ok = 0;
    long dropped = 0;
    for (int i = 0; i < 200; i++) {
      Optional<Status> outcome = BackendCalls.outcome(channel);
      if (outcome.isEmpty()) {
        ok++;
      } else if (String.valueOf(outcome.get().getDescription()).contains("category throttle")) {
        dropped++;
      }
    }

    assertThat(ok + dropped).isEqualTo(200);
    assertThat(metrics.value("jxds.lb.rpcs_dropped", throttle) - dropsBefore).isEqualTo(dropped);
    assertThat(picks() - picksBefore).isEqualTo(ok);
    assertThat(metrics.points("jxds.lb.locality_picks").keySet())
        .extracting(attributes -> attributes.get(AttributeKey.stringKey("grpc.lb.locality")))
        .containsExactlyInAnyOrder("r/a/", "r/b/");
    assertThat(metrics.value("jxds.lb.serving_priority", cluster)).isZero();

    List<Status> closed = new CopyOnWriteArrayList<>();
    ClientCall<byte[], byte[]> held = null;
    while (held == null) { // a hold may be dropped: open another
      ClientCall<byte[], byte[]> hold = BackendCalls.hold(channel, closed);
      Poll.until("held or dropped", () -> a.heldStreams() + b.heldStreams() == 1 || !closed.isEmpty());
      if (closed.isEmpty()) {
        held = hold;
      } else {
        closed.clear();
      }
    }
    assertThat(metrics.value("jxds.lb.rpcs_in_flight", cluster)).isEqualTo(1);
    long refused = 0;
    for (int i = 0; i < 20; i++) {
      Optional<Status> outcome = BackendCalls.outcome(channel);
      if (outcome.isPresent() && String.valueOf(outcome.get().getDescription()).contains("max concurrent")) {
        refused++;
      }
    }
    assertThat(refused).isPositive();
    assertThat(metrics.value("jxds.lb.rpcs_refused", cluster)).isEqualTo(refused);
    held.cancel("done", null);
    Poll.until("in flight back to 0", () -> metrics.value("jxds.lb.rpcs_in_flight", cluster) == 0);
  }

  private long picks() {
    long sum = 0;
    for (Map.Entry<Attributes, Long> e : metrics.points("jxds.lb.locality_picks").entrySet()) {
      sum += e.getValue();
    }
    return sum;
  }
}
