package io.jxds.api.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.model.ClusterUpdate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class FakeXdsClientTest {
  private final FakeXdsClient client = new FakeXdsClient();
  private final Queue<Runnable> queued = new ArrayDeque<>();
  private final Executor executor = queued::add;
  private final List<String> events = new ArrayList<>();

  @Test
  void setResourceReachesTheWatcherOnItsExecutorAndANewWatcherAtOnce() {
    client.watchCluster("payments", watcher("first"), executor);
    client.setResource(ResourceTypes.CLUSTER, "payments", ClusterUpdate.of("payments", "p-eds"));
    assertThat(events).isEmpty(); // nothing runs outside the watcher's executor

    drain();
    client.watchCluster("payments", watcher("second"), executor);
    drain();

    assertThat(events).containsExactly("first update p-eds", "second update p-eds");
  }

  @Test
  void removeAndErrorsReachOnlyActiveWatchesOfThatResource() {
    WatchHandle cancelled = client.watchCluster("payments", watcher("cancelled"), executor);
    client.watchCluster("payments", watcher("active"), executor);
    client.watchCluster("other", watcher("other"), executor);
    cancelled.cancel();

    client.pushError(ResourceTypes.CLUSTER, "payments", Status.UNAVAILABLE.withDescription("lost"));
    client.removeResource(ResourceTypes.CLUSTER, "payments");
    drain();

    assertThat(events).containsExactly("active error lost", "active gone payments");
    assertThat(client.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(2);
    assertThat(client.activeWatch(ResourceTypes.CLUSTER, "other").name()).isEqualTo("other");
    assertThatThrownBy(() -> client.activeWatch(ResourceTypes.ENDPOINTS, "payments"))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void closeCancelsEveryWatchAndRefusesNewOnes() {
    client.watchCluster("payments", watcher("w"), executor);
    client.close();
    client.setResource(ResourceTypes.CLUSTER, "payments", ClusterUpdate.of("payments", "p-eds"));
    drain();

    assertThat(events).isEmpty();
    assertThat(client.isClosed()).isTrue();
    assertThatThrownBy(() -> client.watchCluster("payments", watcher("late"), executor))
        .isInstanceOf(IllegalStateException.class);
  }

  private void drain() {
    for (Runnable r; (r = queued.poll()) != null; ) {
      r.run();
    }
  }

  private ResourceWatcher<ClusterUpdate> watcher(String id) {
    return new ResourceWatcher<>() {
      @Override
      public void onUpdate(ClusterUpdate value) {
        events.add(id + " update " + value.edsServiceName());
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {
        events.add(id + " gone " + resourceName);
      }

      @Override
      public void onError(Status error) {
        events.add(id + " error " + error.getDescription());
      }
    };
  }
}
