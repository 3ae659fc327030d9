package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
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

  /**
   * A response handled after a new name is watched but before the request naming it goes out (the
   * request waits for the end of the turn) answers an earlier request, which did not name it: its
   * absence there is not a deletion. (Many channels starting at once against java-control-plane
   * saw "cluster does not exist: deleted by the control plane" for a cluster that existed.)
   */
  @Test
  void nameWatchedWhileAnOlderResponseIsQueuedIsNotDeletedByThatResponse() {
    RecordingWatcher<TestCluster> late = new RecordingWatcher<>();
    ScriptedCall[] call = new ScriptedCall[1];
    client.watch(TestTypes.CLUSTER, "seed", new ResourceWatcher<TestCluster>() {
      private boolean first = true;

      @Override
      public void onUpdate(TestCluster value) {
        if (first) {
          first = false;
          // Inside the client's turn: the watch is queued, then a response to the earlier
          // request; the request naming "late" goes out at the end of the turn, so the response
          // is handled after the watch and before that request.
          client.watch(TestTypes.CLUSTER, "late", late, DIRECT);
          call[0].respond(response(CLUSTER_TYPE_URL, "2", "n2", XdsResources.cluster("seed").buildAny()));
        }
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    }, DIRECT);
    call[0] = transport.last().ready();
    call[0].respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("seed").buildAny()));

    assertThat(late.events()).isEmpty();
    assertThat(call[0].lastRequest().getResourceNamesList()).contains("late", "seed");
    assertThat(client.status().resources()).anySatisfy(r -> {
      assertThat(r.name()).isEqualTo("late");
      assertThat(r.state()).isEqualTo(ResourceState.REQUESTED);
    });
  }

  /**
   * The same window for a name watched again while its value is retained: the response handled
   * before the request naming it goes out does not delete the retained value.
   */
  @Test
  void retainedNameWatchedAgainWhileAnOlderResponseIsQueuedKeepsItsValue() {
    RecordingWatcher<TestCluster> first = new RecordingWatcher<>();
    WatchHandle handle = client.watch(TestTypes.CLUSTER, "kept", first, DIRECT);
    client.watch(TestTypes.CLUSTER, "seed", new RecordingWatcher<>(), DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1",
        XdsResources.cluster("kept").buildAny(), XdsResources.cluster("seed").buildAny()));
    assertThat(first.events()).hasSize(1);
    handle.cancel(); // "kept" leaves the wire; its value is retained
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("seed");
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", XdsResources.cluster("seed").buildAny()));

    RecordingWatcher<TestCluster> again = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "seed", new ResourceWatcher<TestCluster>() {
      private boolean first = true;

      @Override
      public void onUpdate(TestCluster value) {
        if (!first) {
          return;
        }
        first = false;
        client.watch(TestTypes.CLUSTER, "kept", again, DIRECT);
        call.respond(response(CLUSTER_TYPE_URL, "3", "n3", XdsResources.cluster("seed").buildAny()));
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {}

      @Override
      public void onError(Status error) {}
    }, DIRECT);

    assertThat(again.events()).singleElement().asString().startsWith("Update");
    assertThat(call.lastRequest().getResourceNamesList()).containsExactlyInAnyOrder("kept", "seed");
  }
}
