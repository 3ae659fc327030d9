package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceTypes;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ServerId;
import io.jxds.client.internal.cache.WatcherRegistration;
import io.jxds.client.internal.stream.AdsServer;
import io.jxds.client.internal.stream.AdsStreamController;
import io.jxds.client.internal.stream.ServerChain;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The client's state lives on its SynchronizationContext (ARCHITECTURE.md, "Threading: who owns
 * what"), and the cache, the server chain and the stream controllers check it: an entry point
 * called from another thread is a bug, refused at once rather than left to corrupt state.
 */
class ContextCheckTest {
  private final List<Throwable> uncaught = new ArrayList<>();
  private final SynchronizationContext context = new SynchronizationContext((t, e) -> uncaught.add(e));
  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private final ServerChain chain = new ServerChain(context);
  private final ResourceCache cache =
      new ResourceCache("node", Duration.ofSeconds(15), Duration.ofMinutes(5), context, clock, clock.clock(),
          clock.ticker(), chain, new ResourceCache.Listener() {
            @Override
            public void stateChanged() {}

            @Override
            public void publishStatusNow() {}
          });
  private final AdsStreamController controller =
      new AdsStreamController(new ServerId(0, transport.target()), new AdsServer(transport, false), cache,
          Node.getDefaultInstance(), false, context, clock, clock.ticker(), TestRandom.fixed(0.5), false);
  private final WatcherRegistration<TestTypes.TestCluster> registration =
      new WatcherRegistration<>(new RecordingWatcher<>(), Runnable::run);

  ContextCheckTest() {
    controller.listenedToBy(chain);
    chain.start(List.of(controller), cache, () -> {});
  }

  @Test
  void entryPointsRefuseCallsFromOutsideTheClientsContext() {
    assertThatThrownBy(() -> cache.addWatcher(TestTypes.CLUSTER, "a", registration))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> cache.removeWatcher(TestTypes.CLUSTER, "a", registration))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> cache.wireNames(ResourceTypes.CLUSTER_TYPE_URL)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(cache::statuses).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> cache.noStreamReady(chain)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> chain.wireChanged(ResourceTypes.CLUSTER_TYPE_URL, "a"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(chain::isConnected).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> controller.wireChanged(ResourceTypes.CLUSTER_TYPE_URL, "a"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(controller::isReady).isInstanceOf(IllegalStateException.class);
    assertThat(transport.calls).isEmpty(); // nothing ran
  }

  @Test
  void insideTheContextTheySubscribeAsUsual() {
    AtomicReference<List<String>> names = new AtomicReference<>();
    context.execute(() -> cache.addWatcher(TestTypes.CLUSTER, "a", registration));
    context.execute(() -> names.set(List.copyOf(cache.wireNames(ResourceTypes.CLUSTER_TYPE_URL))));

    assertThat(uncaught).isEmpty();
    assertThat(names.get()).containsExactly("a");
    assertThat(transport.calls).hasSize(1); // the first name on the wire opened the stream
  }
}
