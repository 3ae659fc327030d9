package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.stub.ClientCalls;
import io.jxds.api.XdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.resolver.RouteChoice;
import io.jxds.balancer.internal.resolver.RouteSource;
import io.jxds.balancer.internal.resolver.RouteTable;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The routing runtime end to end (ARCHITECTURE.md, "Routing each call"): an {@code xds:///}
 * channel whose route tables the test sets through the resolver's {@link RouteSource} seam, the
 * clusters served by FakeAdsServer's CDS and EDS, real backends on 127.0.0.1.
 */
class RoutedChannelEndToEndTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestRoutes routes = new TestRoutes();

  @Test
  void aNinetyTenSplitSendsEachCallToOneClusterChosenOncePerCall() {
    serveClusters("canary-stable", "canary-next");
    SplitTable split = new SplitTable(Map.of("canary-stable", 9, "canary-next", 1));
    routes.initial = split;
    ManagedChannel channel = channel("xds:///canary");
    BackendCalls.awaitCalls(channel, 10, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("canary-next", 0) == 1);
    long choicesBefore = split.choices.get();

    Map<String, Integer> window = BackendCalls.calls(channel, 1_000);

    assertThat(window).containsExactlyInAnyOrderEntriesOf(Map.of("canary-stable", 900, "canary-next", 100));
    assertThat(split.choices.get() - choicesBefore).as("one route choice per call").isEqualTo(1_000);
  }

  @Test
  void theJxdsSchemeRoutesTheSameWay() {
    serveClusters("only");
    routes.initial = new SplitTable(Map.of("only", 1));

    assertThat(BackendCalls.awaitCalls(channel("jxds:///service"), 5, Poll.DEFAULT_TIMEOUT,
        w -> w.getOrDefault("only", 0) == 5)).containsOnlyKeys("only");
  }

  @Test
  void aClusterRemovedFromTheRoutesWhileACallIsOnItDoesNotFailThatCall() throws Exception {
    serveClusters("stays", "leaves");
    // Held streams go to "leaves", unary calls to "stays".
    routes.initial = new ByMethodTable(Set.of("stays", "leaves"),
        method -> method.equals(TestBackend.HOLD_METHOD.getFullMethodName()) ? "leaves" : "stays");
    ManagedChannel channel = channel("xds:///service");
    List<Status> closed = new CopyOnWriteArrayList<>();
    ClientCall<byte[], byte[]> held = BackendCalls.hold(channel, closed);
    TestBackend leaves = bed.backends().get("leaves");
    Poll.until("the stream held on the leaving cluster", () -> leaves.heldStreams() == 1);

    routes.set(new ByMethodTable(Set.of("stays"), method -> "stays"));

    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("stays", 0) == 5);
    assertThat(ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL))
        .as("the cluster is kept while the call holds it").contains("leaves");
    leaves.releaseHeld(1);
    Poll.until("the held call's close", () -> closed.size() == 1);
    assertThat(closed.get(0).getCode()).isEqualTo(Status.Code.OK);
    Poll.until(() -> "the cluster's watch to end once no call holds it: "
            + ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL), Duration.ofSeconds(10),
        () -> !ads.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL).contains("leaves"));
    held.cancel("done", null);
  }

  @Test
  void aClusterAddedToTheRoutesGetsItsCallsOnceReadyWithoutFailures() {
    serveClusters("old");
    routes.initial = new SplitTable(Map.of("old", 1));
    ManagedChannel channel = channel("xds:///service");
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("old", 0) == 5);
    serveClusters("old", "new");

    routes.set(new SplitTable(Map.of("new", 1, "old", 0)));

    // Not wait-for-ready: a call that reached the new cluster before it was READY would fail.
    assertThat(BackendCalls.calls(channel, 50)).containsExactly(Map.entry("new", 50));
  }

  @Test
  void aWeightOnlyChangeOpensNoConnectionAndWatchesNothingNew() {
    serveClusters("a", "b");
    routes.initial = new SplitTable(Map.of("a", 1, "b", 1));
    ManagedChannel channel = channel("xds:///service");
    BackendCalls.awaitCalls(channel, 10, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);
    int connections = bed.backends().get("a").connectionsOpened() + bed.backends().get("b").connectionsOpened();
    int clusterRequests = ads.requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL).size();

    routes.set(new SplitTable(Map.of("a", 3, "b", 1)));

    assertThat(BackendCalls.calls(channel, 400)).containsExactlyInAnyOrderEntriesOf(Map.of("a", 300, "b", 100));
    assertThat(bed.backends().get("a").connectionsOpened() + bed.backends().get("b").connectionsOpened())
        .isEqualTo(connections);
    assertThat(ads.requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL)).hasSize(clusterRequests);
  }

  @Test
  void aRouteThatCannotBeServedFailsItsCallsUnavailableNamingIt() {
    serveClusters("a");
    Status noRoute = Status.UNAVAILABLE.withDescription("xds:///service: no route of virtual host vh matches");
    routes.initial = new ByMethodTable(Set.of("a"), method -> null) {
      @Override
      public RouteChoice choose(PickSubchannelArgs call) {
        return new RouteChoice.Fail(noRoute);
      }
    };

    Status status = BackendCalls.failure(channel("xds:///service"));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo(noRoute.getDescription());
  }

  @Test
  void aRouteSourceErrorFailsEvenWaitForReadyCallsAtOnce() {
    routes.error = Status.UNAVAILABLE.withDescription("listener service does not exist");
    ManagedChannel channel = channel("xds:///service");

    io.grpc.StatusRuntimeException failure = org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD,
            CallOptions.DEFAULT.withWaitForReady().withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]),
        io.grpc.StatusRuntimeException.class);

    assertThat(failure.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(failure.getStatus().getDescription()).isEqualTo("listener service does not exist");
  }

  @Test
  void theDefaultSourceRoutesByTheListenerAndItsRouteConfiguration() {
    serveClusters("a");
    ads.setRoutes(XdsResources.route("payments-routes").virtualHost("vh", List.of("*"), "a").build());
    ads.setListeners(XdsResources.listener("payments").rdsRouteConfig("payments-routes").build());
    ManagedChannel channel = bed.track(
        Grpc.newChannelBuilder("xds:///payments", InsecureChannelCredentials.create()).build());

    assertThat(BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> !w.containsKey(BackendCalls.FAILED)))
        .containsExactly(Map.entry("a", 5));
  }

  @Test
  void aClientHandedInIsUsedAndNotClosed() throws Exception {
    System.clearProperty(XdsTestBed.BOOTSTRAP_PROPERTY); // no bootstrap anywhere: only the handed-in client
    serveClusters("a");
    routes.initial = new SplitTable(Map.of("a", 1));
    try (DefaultXdsClient client =
        XdsClientBuilder.forTarget(ads.serverUri(), InsecureChannelCredentials.create()).build()) {
      ManagedChannel channel = bed.track(Grpc.newChannelBuilder("xds:///service", InsecureChannelCredentials.create())
          .setNameResolverArg(RouteSource.FACTORY_ARG, routes)
          .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
          .build());

      BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);
      assertThat(routes.client).isSameAs(client);
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

      assertThat(client.isClosed()).isFalse();
    }
  }

  @Test
  void withoutABootstrapCallsFailNamingTheTargetAndWhereToPutOne() {
    System.clearProperty(XdsTestBed.BOOTSTRAP_PROPERTY);

    Status status = BackendCalls.failure(channel("xds:///service"));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).startsWith("xds:///service: no xDS client: ")
        .contains("GRPC_XDS_BOOTSTRAP").contains("XDS_CLIENT_ARG");
  }

  @Test
  void aChannelCreatedBeforeItsBootstrapRoutesOnceTheBootstrapAppears() {
    System.clearProperty(XdsTestBed.BOOTSTRAP_PROPERTY);
    serveClusters("a");
    routes.initial = new SplitTable(Map.of("a", 1));
    ManagedChannel channel = channel("xds:///service");
    assertThat(BackendCalls.failure(channel).getDescription()).startsWith("xds:///service: no xDS client: ");

    bed.useBootstrap(ads.bootstrap().jxdsOption("client_retention", "0s").build());

    // No enterIdle(): the channel's own re-resolution (with backoff) must find the bootstrap.
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("a", 0) == 5);
  }

  @Test
  void anAuthorityTheBootstrapLacksFailsCallsNamingIt() {
    Status status = BackendCalls.failure(channel("xds://elsewhere.example/service"));

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("INVALID_ARGUMENT: invalid target xds://elsewhere.example/service:"
        + " target authority elsewhere.example is not in the bootstrap's authorities");
  }

  @Test
  void theVirtualHostIsChosenByTheChannelsAuthority() {
    serveClusters("a");
    routes.initial = new SplitTable(Map.of("a", 1));
    ManagedChannel plain = channel("xds:///service.prod:8080");
    BackendCalls.awaitCalls(plain, 1, Poll.DEFAULT_TIMEOUT, w -> w.containsKey("a"));
    assertThat(routes.request.authority()).isEqualTo("service.prod:8080");
    assertThat(routes.request.listenerName()).isEqualTo("service.prod:8080");

    ManagedChannel overridden = bed.track(Grpc.newChannelBuilder("xds:///service", InsecureChannelCredentials.create())
        .overrideAuthority("front.example")
        .setNameResolverArg(RouteSource.FACTORY_ARG, routes)
        .build());
    BackendCalls.awaitCalls(overridden, 1, Poll.DEFAULT_TIMEOUT, w -> w.containsKey("a"));

    assertThat(routes.request.authority()).isEqualTo("front.example");
    assertThat(routes.request.listenerName()).isEqualTo("service");
  }

  /** Serves each cluster by CDS and EDS, each with one backend of its own name. */
  private void serveClusters(String... names) {
    List<io.envoyproxy.envoy.config.cluster.v3.Cluster> clusters = new ArrayList<>();
    List<io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String name : names) {
      TestBackend backend = backend(name);
      clusters.add(XdsResources.cluster(name).build());
      assignments.add(XdsResources.endpoints(name)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY))
          .build());
    }
    ads.setClusters(clusters.toArray(io.envoyproxy.envoy.config.cluster.v3.Cluster[]::new));
    ads.setEndpoints(assignments.toArray(io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment[]::new));
  }

  private TestBackend backend(String name) {
    try {
      return bed.backends().get(name);
    } catch (IllegalArgumentException absent) {
      return bed.backends().start(name);
    }
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
        .setNameResolverArg(RouteSource.FACTORY_ARG, routes)
        .build());
  }

  /** The test's route source: an initial table (or error), then what {@link #set} installs. */
  private static final class TestRoutes implements RouteSource.Factory {
    volatile RouteTable initial;
    volatile Status error;
    volatile RouteSource.Request request;
    volatile XdsClient client;
    private volatile RouteSource.Sink sink;
    private volatile SynchronizationContext syncContext;

    @Override
    public RouteSource start(RouteSource.Request request, RouteSource.Sink sink) {
      this.sink = sink;
      this.request = request;
      this.client = request.client();
      this.syncContext = request.syncContext();
      if (error != null) {
        sink.onError(error);
      } else if (initial != null) {
        sink.onRouteTable(initial);
      }
      return () -> {};
    }

    void set(RouteTable table) {
      syncContext.execute(() -> sink.onRouteTable(table));
    }
  }

  /** Splits calls by weight, in a fixed cycle (exact shares), counting its choices. */
  private static final class SplitTable implements RouteTable {
    final AtomicLong choices = new AtomicLong();
    private final List<String> cycle = new ArrayList<>();
    private final Set<String> clusters;

    SplitTable(Map<String, Integer> weights) {
      clusters = Set.copyOf(weights.keySet());
      weights.entrySet().stream().sorted(Map.Entry.comparingByKey())
          .forEach(e -> cycle.addAll(java.util.Collections.nCopies(e.getValue(), e.getKey())));
    }

    @Override
    public Set<String> clusters() {
      return clusters;
    }

    @Override
    public RouteChoice choose(PickSubchannelArgs call) {
      return new RouteChoice.ToCluster(cycle.get((int) (choices.getAndIncrement() % cycle.size())));
    }
  }

  /** Routes by the call's full method name. */
  private static class ByMethodTable implements RouteTable {
    private final Set<String> clusters;
    private final Function<String, String> byMethod;

    ByMethodTable(Set<String> clusters, Function<String, String> byMethod) {
      this.clusters = clusters;
      this.byMethod = byMethod;
    }

    @Override
    public Set<String> clusters() {
      return clusters;
    }

    @Override
    public RouteChoice choose(PickSubchannelArgs call) {
      return new RouteChoice.ToCluster(byMethod.apply(call.getMethodDescriptor().getFullMethodName()));
    }
  }
}
