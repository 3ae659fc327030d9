package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.jxds.balancer.internal.manager.ChosenCluster;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Calls routed by route tables, with gRFC A31's reference counts: a fake channel plays the calls,
 * the fake clock is the channel's timer.
 */
class TableRouterTest {
  private static final Object METHOD_CONFIG = "method config";

  private final FakeLbHelper helper = new FakeLbHelper();
  /** The clusters the cluster manager was given, each time they changed. */
  private final List<Set<String>> pushed = new ArrayList<>();
  private final List<CallRoute> routedDuringPush = new ArrayList<>();
  private final ClusterRefs refs = new ClusterRefs(helper.getSynchronizationContext(),
      helper.getScheduledExecutorService(), this::onClustersChanged);
  private final TableRouter router = new TableRouter(helper.getSynchronizationContext(), refs, METHOD_CONFIG,
      "xds:///payments");

  private void onClustersChanged() {
    pushed.add(refs.clusters());
    routedDuringPush.add(router.route(FakeLbHelper.ARGS));
  }

  @Test
  void aNewTablesClustersReachTheClusterManagerBeforeTheTableRoutesAnyCall() {
    install(table(Set.of("a", "b"), call -> "b"));

    assertThat(pushed).containsExactly(Set.of("a", "b"));
    assertThat(routedDuringPush.get(0)).isInstanceOf(CallRoute.Failed.class); // the table was not serving yet
    assertThat(router.route(FakeLbHelper.ARGS)).isInstanceOf(CallRoute.Routed.class);
  }

  @Test
  void aRoutedCallCarriesItsClusterInTheCallOptionsOfItsPicks() {
    install(table(Set.of("a", "b"), call -> "b"));

    FakeCall call = start();

    assertThat(call.options.getOption(ChosenCluster.KEY).cluster()).isEqualTo("b");
    assertThat(((CallRoute.Routed) call.route).methodConfig()).isSameAs(METHOD_CONFIG);
  }

  @Test
  void aClusterTheTableDropsStaysWhileACallHoldsItAndLeavesAfterItsResponseHeaders() {
    install(table(Set.of("a", "b"), call -> "b"));
    FakeCall onB = start();

    install(table(Set.of("a"), call -> "a"));
    assertThat(clusters()).containsExactly("a", "b");

    onB.listener.onHeaders(new Metadata());
    assertThat(clusters()).as("not removed on the call's stack").containsExactly("a", "b");
    helper.clock.runDueTasks();
    assertThat(clusters()).containsExactly("a");
    assertThat(pushed).containsExactly(Set.of("a", "b"), Set.of("a"));
  }

  @Test
  void aCallThatClosesWithoutHeadersReleasesItsClusterOnce() {
    install(table(Set.of("a", "b"), call -> "b"));
    FakeCall first = start();
    FakeCall second = start();
    install(table(Set.of("a"), call -> "a"));

    first.listener.onClose(Status.UNAVAILABLE, new Metadata());
    first.listener.onClose(Status.UNAVAILABLE, new Metadata()); // a second close must not release twice
    helper.clock.runDueTasks();
    assertThat(clusters()).containsExactly("a", "b");

    second.listener.onHeaders(new Metadata());
    second.listener.onClose(Status.OK, new Metadata());
    helper.clock.runDueTasks();
    assertThat(clusters()).containsExactly("a");
  }

  @Test
  void aClusterAddedBackWhileItsRemovalIsQueuedStays() {
    install(table(Set.of("a", "b"), call -> "b"));
    FakeCall onB = start();
    install(table(Set.of("a"), call -> "a"));
    onB.listener.onClose(Status.OK, new Metadata()); // b reaches 0; its removal is queued

    install(table(Set.of("a", "b"), call -> "b"));
    helper.clock.runDueTasks();

    assertThat(clusters()).containsExactly("a", "b");
    assertThat(pushed).containsExactly(Set.of("a", "b"));
    assertThat(start().options.getOption(ChosenCluster.KEY).cluster()).isEqualTo("b");
  }

  @Test
  void aTableWithTheSameClustersChangesNothingForTheClusterManager() {
    install(table(Set.of("a", "b"), call -> "a"));

    install(table(Set.of("a", "b"), call -> "b"));

    assertThat(pushed).hasSize(1);
    assertThat(start().options.getOption(ChosenCluster.KEY).cluster()).isEqualTo("b");
  }

  @Test
  void aCallRacingATableSwapIsRoutedByTheNewTable() {
    RouteTable second = table(Set.of("a"), call -> "a");
    // The first table's choice lands while the second one replaces it, dropping b's last reference.
    install(table(Set.of("a", "b"), call -> {
      helper.run(() -> router.install(second));
      return "b";
    }));

    FakeCall call = start();

    assertThat(call.options.getOption(ChosenCluster.KEY).cluster()).isEqualTo("a");
  }

  @Test
  void aFailedResolverFailsEveryCallAndKeepsOnlyTheClustersCallsHold() {
    install(table(Set.of("a", "b"), call -> "b"));
    FakeCall onB = start();
    Status noListener = Status.UNAVAILABLE.withDescription("listener payments does not exist");

    helper.run(() -> router.fail(noListener));

    assertThat(router.route(FakeLbHelper.ARGS)).isEqualTo(new CallRoute.Failed(noListener));
    assertThat(clusters()).containsExactly("b");
    onB.listener.onClose(Status.OK, new Metadata());
    helper.clock.runDueTasks();
    assertThat(clusters()).isEmpty();
  }

  @Test
  void aTablesFailedChoiceFailsTheCallWithItsStatus() {
    Status noRoute = Status.UNAVAILABLE.withDescription("no route matched");
    install(new FixedTable(Set.of("a"), call -> new RouteChoice.Fail(noRoute)));

    assertThat(router.route(FakeLbHelper.ARGS)).isEqualTo(new CallRoute.Failed(noRoute));
  }

  @Test
  void aTableThatThrowsFailsTheCallNotTheChannel() {
    install(new FixedTable(Set.of("a"), call -> {
      throw new IllegalStateException("bug");
    }));

    CallRoute route = router.route(FakeLbHelper.ARGS);

    assertThat(((CallRoute.Failed) route).status().getDescription())
        .isEqualTo("xds:///payments: choosing a route failed: java.lang.IllegalStateException: bug");
  }

  @Test
  void aChoiceOfAClusterTheTableDoesNotListFailsTheCallNamingIt() {
    install(table(Set.of("a"), call -> "elsewhere"));

    CallRoute route = router.route(FakeLbHelper.ARGS);

    assertThat(((CallRoute.Failed) route).status().getDescription()).isEqualTo(
        "xds:///payments: the route chose cluster elsewhere, which the route table does not list");
  }

  private void install(RouteTable table) {
    helper.run(() -> router.install(table));
  }

  private Set<String> clusters() {
    Set<?>[] clusters = new Set<?>[1];
    helper.run(() -> clusters[0] = refs.clusters());
    @SuppressWarnings("unchecked")
    Set<String> names = (Set<String>) clusters[0];
    return names;
  }

  private static RouteTable table(Set<String> clusters, Function<PickSubchannelArgs, String> choose) {
    return new FixedTable(clusters, call -> new RouteChoice.ToCluster(choose.apply(call)));
  }

  /** Routes one call and starts it on a fake channel. */
  private FakeCall start() {
    FakeCall call = new FakeCall(router.route(FakeLbHelper.ARGS));
    ClientCall<byte[], byte[]> intercepted = ((CallRoute.Routed) call.route).interceptor()
        .interceptCall(TestBackend.NAME_METHOD, CallOptions.DEFAULT, call);
    intercepted.start(new ClientCall.Listener<>() {}, new Metadata());
    return call;
  }

  private record FixedTable(Set<String> clusters, Function<PickSubchannelArgs, RouteChoice> choice)
      implements RouteTable {
    @Override
    public RouteChoice choose(PickSubchannelArgs call) {
      return choice.apply(call);
    }
  }

  /** A channel of one call: keeps the call options and the listener the interceptor passed on. */
  private static final class FakeCall extends Channel {
    final CallRoute route;
    CallOptions options;
    ClientCall.Listener<?> listener;

    FakeCall(CallRoute route) {
      this.route = route;
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions callOptions) {
      options = callOptions;
      return new ClientCall<>() {
        @Override
        public void start(Listener<R> responseListener, Metadata headers) {
          listener = responseListener;
        }

        @Override
        public void request(int numMessages) {}

        @Override
        public void cancel(String message, Throwable cause) {}

        @Override
        public void halfClose() {}

        @Override
        public void sendMessage(Q message) {}
      };
    }

    @Override
    public String authority() {
      return "payments";
    }
  }
}
