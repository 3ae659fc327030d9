package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.testing.FakeClock;
import io.jxds.testing.XdsResources;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * State-of-the-world subscribing in bursts: the names watched within one turn of the client's
 * sync context go out in one request per type.
 */
class SubscriptionBatchingTest {
  private static final Executor DIRECT = Runnable::run;
  private static final int BURST = 100;

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private final DefaultXdsClient client =
      transport.clientBuilder(clock, Node.newBuilder().setId("n").build()).build();

  @AfterEach
  void close() {
    client.close();
  }

  /**
   * Watches {@code seed} with a direct-executor watcher that, on its value, watches clusters
   * c0..c(n-1): all inside one turn of the client's context.
   */
  static void watchBurstOnUpdate(DefaultXdsClient client, String seed, int n) {
    client.watch(TestTypes.CLUSTER, seed, new ResourceWatcher<TestCluster>() {
      @Override
      public void onUpdate(TestCluster value) {
        for (int i = 0; i < n; i++) {
          client.watch(TestTypes.CLUSTER, "c" + i, new RecordingWatcher<>(), DIRECT);
        }
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    }, DIRECT);
  }

  @Test
  void burstOfWatchesInOneTurnSendsOneRequest() {
    client.watch(TestTypes.CLUSTER, "seed", new RecordingWatcher<>(), DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("seed").buildAny()));
    int before = call.sent.size();

    // A watcher with a direct executor runs inside the client's turn: every watch it makes is
    // handled in that same turn, as the watches of many channels queued while the client is busy.
    watchBurstOnUpdate(client, "seed", BURST);

    assertThat(call.sent).hasSize(before + 1);
    DiscoveryRequest request = call.lastRequest();
    assertThat(request.getResourceNamesList()).hasSize(BURST + 1).contains("seed", "c0", "c" + (BURST - 1));
    assertThat(request.getResponseNonce()).isEqualTo("n1");
    assertThat(request.getVersionInfo()).isEqualTo("1");
  }
}
