package io.jxds.balancer.internal;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelStateListener;
import io.grpc.Status;
import io.grpc.util.ForwardingLoadBalancerHelper;
import io.grpc.util.ForwardingSubchannel;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.cds.CdsBalancer;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.balancer.internal.endpoint.EndpointBalancer;
import io.jxds.balancer.internal.endpoint.EndpointGroup;
import io.jxds.balancer.internal.hash.HashBalancer;
import io.jxds.balancer.internal.locality.LocalityBalancer;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.manager.ClusterManagerBalancer;
import io.jxds.balancer.internal.manager.ClusterManagerConfig;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.priority.PriorityConfig;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every layer of the tree does the same way (ARCHITECTURE.md, "The load-balancing tree"): a
 * config of the wrong type is refused with UNAVAILABLE, and every entry point runs on the channel's
 * SynchronizationContext only.
 */
class LayerConventionsTest {
  private final FakeLbHelper fake = new FakeLbHelper();
  /** Records each subchannel's state listener, so that a test can call one from the wrong thread. */
  private final ListenerCapture helper = new ListenerCapture(fake);
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private LoadBalancer balancer;

  /** One layer: how it is made and a config it accepts. */
  private record Layer(String name, BiFunction<Helper, XdsClient, LoadBalancer> create, Object config) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Layer> layers() {
    LocalityGroup roundRobin = LocalityGroup.of(locality("a", 1, endpoint(1), endpoint(2)));
    LocalityGroup ringHash = new LocalityGroup(roundRobin.localities(),
        new EndpointPolicy(LbPolicy.RingHash.defaults(), ""));
    return Stream.of(
        new Layer("cluster_manager", (h, x) -> new ClusterManagerBalancer(h, new LoadBalancer.Factory() {
          @Override
          public LoadBalancer newLoadBalancer(Helper child) {
            return new XdsClusterLoadBalancer(
                child, () -> XdsClientLease.borrowed(x), TestRandom.seeded(1), TestRandom.seeded(2));
          }
        }), ClusterManagerConfig.of(List.of("payments"))),
        new Layer("xds_cluster", (h, x) -> new XdsClusterLoadBalancer(
            h, () -> XdsClientLease.borrowed(x), TestRandom.seeded(1), TestRandom.seeded(2)),
            ClusterPolicyConfig.forCluster("payments")),
        new Layer("cds", (h, x) -> new CdsBalancer(h, x, "payments", TestRandom.seeded(1), TestRandom.seeded(2)),
            ClusterPolicyConfig.forCluster("payments")),
        new Layer("eds", (h, x) -> new EdsBalancer(h, x, TestRandom.seeded(1), TestRandom.seeded(2)),
            new EdsConfig("payments", "payments-eds", 1024, Duration.ofSeconds(10), Duration.ofMinutes(15))),
        new Layer("priority", (h, x) -> new PriorityBalancer(h, TestRandom.seeded(1)),
            PriorityConfig.of("payments", List.of(roundRobin))),
        new Layer("locality", (h, x) -> new LocalityBalancer(h, "payments[child0]", TestRandom.seeded(1)),
            roundRobin),
        new Layer("endpoint", (h, x) -> new EndpointBalancer(h, "payments[child0] zone-a", TestRandom.seeded(1)),
            new EndpointGroup(List.of(endpoint(1), endpoint(2)))),
        new Layer("hash", (h, x) -> new HashBalancer(h, "payments[child0]", TestRandom.seeded(1)), ringHash));
  }

  @AfterEach
  void shutDown() {
    if (balancer != null) {
      fake.run(balancer::shutdown);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layers")
  void aConfigOfTheWrongTypeIsUnavailableAndChangesNothing(Layer layer) {
    start(layer);
    int updates = fake.updates.size();
    int subchannels = fake.subchannels.size();

    Status status = accept("nonsense");

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).contains("expected").contains("nonsense");
    assertThat(fake.updates).hasSize(updates);
    assertThat(fake.subchannels).hasSize(subchannels);
    assertThat(accept(layer.config()).isOk()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layers")
  void everyEntryPointRefusesToRunOutsideTheSynchronizationContext(Layer layer) {
    start(layer);
    ResolvedAddresses same = resolved(layer.config());

    assertOutside(() -> balancer.acceptResolvedAddresses(same));
    assertOutside(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("dns")));
    assertOutside(() -> balancer.requestConnection());
    assertOutside(() -> balancer.shutdown());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layers")
  void subchannelStatesAreRefusedOutsideTheSynchronizationContext(Layer layer) {
    start(layer);
    if (List.of("cluster_manager", "xds_cluster", "cds").contains(layer.name())) {
      fake.run(() -> xds.setResource(ResourceTypes.CLUSTER, "payments", ClusterUpdate.of("payments", "payments-eds")));
    }
    if (List.of("cluster_manager", "xds_cluster", "cds", "eds").contains(layer.name())) {
      fake.run(() -> xds.setResource(ResourceTypes.ENDPOINTS, "payments-eds", assignment(endpoint(1), endpoint(2))));
    }
    assertThat(helper.listeners).isNotEmpty();

    for (SubchannelStateListener listener : helper.listeners) {
      assertOutside(() -> listener.onSubchannelState(ConnectivityStateInfo.forNonError(ConnectivityState.READY)));
    }
  }

  @Test
  void cdsWatcherCallbacksAreRefusedOutsideTheSynchronizationContext() {
    DirectXdsClient direct = new DirectXdsClient(xds);
    balancer = new CdsBalancer(helper, direct, "payments", TestRandom.seeded(1), TestRandom.seeded(2));
    fake.run(() -> balancer.acceptResolvedAddresses(resolved(ClusterPolicyConfig.forCluster("payments"))));
    fake.run(() -> xds.setResource(ResourceTypes.CLUSTER, "payments", ClusterUpdate.of("payments", "payments-eds")));

    assertOutside(() -> xds.pushError(ResourceTypes.CLUSTER, "payments", Status.UNAVAILABLE.withDescription("x")));
  }

  @Test
  void edsWatcherCallbacksAreRefusedOutsideTheSynchronizationContext() {
    DirectXdsClient direct = new DirectXdsClient(xds);
    balancer = new EdsBalancer(helper, direct, TestRandom.seeded(1), TestRandom.seeded(2));
    fake.run(() -> balancer.acceptResolvedAddresses(resolved(
        new EdsConfig("payments", "payments-eds", 1024, Duration.ofSeconds(10), Duration.ofMinutes(15)))));
    fake.run(() -> xds.setResource(ResourceTypes.ENDPOINTS, "payments-eds", assignment(endpoint(1))));

    Status error = Status.UNAVAILABLE.withDescription("x");
    assertOutside(() -> xds.pushError(ResourceTypes.ENDPOINTS, "payments-eds", error));
  }

  private static EndpointsUpdate assignment(Endpoint... endpoints) {
    return new EndpointsUpdate(
        "payments-eds", List.of(new Locality(zone("a"), 0, 1, List.of(endpoints))), List.of(), 140, List.of());
  }

  private void start(Layer layer) {
    balancer = layer.create().apply(helper, xds);
    assertThat(accept(layer.config()).isOk()).isTrue();
  }

  private Status accept(Object config) {
    Status[] status = new Status[1];
    fake.run(() -> status[0] = balancer.acceptResolvedAddresses(resolved(config)));
    return status[0];
  }

  private static ResolvedAddresses resolved(Object config) {
    return ResolvedAddresses.newBuilder().setAddresses(List.of()).setLoadBalancingPolicyConfig(config).build();
  }

  private static void assertOutside(Runnable call) {
    assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SynchronizationContext");
  }

  /** The fake helper, with every subchannel's state listener kept. */
  private static final class ListenerCapture extends ForwardingLoadBalancerHelper {
    final List<SubchannelStateListener> listeners = new ArrayList<>();
    private final Helper delegate;

    ListenerCapture(Helper delegate) {
      this.delegate = delegate;
    }

    @Override
    protected Helper delegate() {
      return delegate;
    }

    @Override
    public Subchannel createSubchannel(CreateSubchannelArgs args) {
      Subchannel subchannel = delegate.createSubchannel(args);
      return new ForwardingSubchannel() {
        @Override
        protected Subchannel delegate() {
          return subchannel;
        }

        @Override
        public void start(SubchannelStateListener listener) {
          listeners.add(listener);
          super.start(listener);
        }
      };
    }
  }

  /** A client that runs watcher callbacks on the calling thread, whatever executor they name. */
  private static final class DirectXdsClient implements XdsClient {
    private final XdsClient delegate;

    DirectXdsClient(XdsClient delegate) {
      this.delegate = delegate;
    }

    @Override
    public <T> WatchHandle watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
      return delegate.watch(type, name, watcher, Runnable::run);
    }

    @Override
    public XdsClientStatus status() {
      return delegate.status();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
