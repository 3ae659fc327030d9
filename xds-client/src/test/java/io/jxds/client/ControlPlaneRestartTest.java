package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.internal.stream.GrpcAdsTransport;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeClock;
import io.jxds.testing.Poll;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real client on a real loopback channel against a control plane that goes away: the client's
 * timers run on a manual clock that the tests barely move, so whatever reconnects must be the
 * channel itself (its own real-time reconnect backoff), not a client retry timer.
 */
class ControlPlaneRestartTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeClock clock = new FakeClock();
  private FakeAdsServer server;
  private DefaultXdsClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop();
    }
  }

  private XdsClientBuilder builder(String target) {
    return XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("restart-node").build())
        .scheduler(clock)
        .clock(clock.clock())
        .ticker(clock.ticker())
        .random(TestRandom.fixed(0.5));
  }

  @Test
  void streamOpensAsSoonAsTheChannelReconnectsWithoutWaitingForAClientTimer() {
    server = FakeAdsServer.loopback().start();
    server.setClusters(XdsResources.cluster("a").build());
    client = builder(server.serverUri()).build();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);
    server.requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);

    server.stop();
    // The stream had a response and lived no (manual) time: the next one starts after the reset
    // backoff's first delay (gRFC A57).
    Poll.until("retry scheduled", WAIT, () -> clock.numPendingTasks() == 1);
    clock.forwardTime(1, TimeUnit.SECONDS);
    Poll.until("connection failure reported", WAIT, () -> !client.status().connected());
    RecordingWatcher<TestCluster> b = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "b", b, Runnable::run);
    Poll.until("b hears the failure", WAIT, () -> !b.errors().isEmpty());
    assertThat(b.errors().get(0).getDescription())
        .contains("ADS stream to " + server.serverUri() + " failed: UNAVAILABLE");
    assertThat(a.updates()).hasSize(1); // the cache is kept

    server.start();
    // No client timer runs from here on: the waiting stream starts when the channel reconnects.
    server.streams().awaitCount(1, WAIT);
    server.requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    Poll.until("connected", WAIT, () -> client.status().connected());
  }

  @Test
  void deadServerGetsOneWaitingStreamNotARetryPerBackoffDelay() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort(); // nothing listens there once closed
    }
    String target = "127.0.0.1:" + port;
    ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    CountingTransport counting = new CountingTransport(new GrpcAdsTransport(channel, channel, target));
    client = builder(target).transport(counting).build();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);

    Poll.until("a hears the failure", WAIT, () -> !a.errors().isEmpty());
    assertThat(a.errors().get(0).getDescription()).contains("ADS stream to " + target + " failed: UNAVAILABLE");
    // Ten minutes of client time: every client timer that could retry has its chance.
    for (int i = 0; i < 600; i++) {
      clock.forwardTime(1, TimeUnit.SECONDS);
    }
    assertThat(counting.starts.get()).as("streams started against a dead server").isEqualTo(1);
    assertThat(counting.reconnects.get()).isLessThanOrEqualTo(4);
    assertThat(client.status().connected()).isFalse();
  }

}
