package io.jxds.balancer.internal;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class XdsClusterLoadBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient pooled = new FakeXdsClient("test-node");
  private final AtomicInteger acquired = new AtomicInteger();
  private final AtomicInteger released = new AtomicInteger();
  private final PooledClientSource pool = () -> {
    acquired.incrementAndGet();
    return new XdsClientLease() {
      @Override
      public io.jxds.api.XdsClient client() {
        return pooled;
      }

      @Override
      public void release() {
        released.incrementAndGet();
      }
    };
  };
  private final XdsClusterLoadBalancer balancer =
      new XdsClusterLoadBalancer(helper, pool, TestRandom.seeded(1), TestRandom.seeded(2));

  @Test
  void clientFromTheResolvedAddressesWinsAndIsNeverReleased() {
    FakeXdsClient mine = new FakeXdsClient("test-node");

    accept("payments", Attributes.newBuilder().set(XdsClusterPolicy.XDS_CLIENT_ATTRIBUTE, mine).build());
    helper.run(balancer::shutdown);

    assertThat(mine.activeWatchCount(ResourceTypes.CLUSTER)).isZero();
    assertThat(mine.watches()).hasSize(1);
    assertThat(acquired).hasValue(0);
  }

  @Test
  void withoutAClientHandedInThePoolOneIsUsedAndReleasedOnShutdown() {
    accept("payments", Attributes.EMPTY);
    accept("payments", Attributes.EMPTY);

    assertThat(pooled.activeWatch(ResourceTypes.CLUSTER, "payments")).isNotNull();
    assertThat(acquired).hasValue(1);
    helper.run(balancer::shutdown);
    assertThat(released).hasValue(1);
  }

  @Test
  void noBootstrapFailsRpcsWithTheReason() {
    XdsClusterLoadBalancer noPool = new XdsClusterLoadBalancer(helper, () -> {
      throw new IllegalStateException("no xDS bootstrap: set GRPC_XDS_BOOTSTRAP or jxds.bootstrap");
    }, TestRandom.seeded(1), TestRandom.seeded(2));

    Status[] accepted = new Status[1];
    helper.run(() -> accepted[0] = noPool.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription())
        .isEqualTo("cluster payments: no xDS bootstrap: set GRPC_XDS_BOOTSTRAP or jxds.bootstrap");
    // Not OK, so that the channel re-resolves with backoff and the bootstrap is looked up again.
    assertThat(accepted[0].getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(accepted[0].getDescription()).isEqualTo(status.getDescription());
  }

  @Test
  void retriesWithoutABootstrapPushTheFailureOnce() {
    AtomicInteger attempts = new AtomicInteger();
    XdsClusterLoadBalancer noPool = new XdsClusterLoadBalancer(helper, () -> {
      attempts.incrementAndGet();
      throw new IllegalStateException("no xDS bootstrap");
    }, TestRandom.seeded(1), TestRandom.seeded(2));

    for (int i = 0; i < 3; i++) {
      helper.run(() -> noPool.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)));
    }

    assertThat(attempts).hasValue(3);
    assertThat(helper.updates).hasSize(1);
  }

  @Test
  void bootstrapThatAppearsLaterIsPickedUpByTheNextResolution() {
    java.util.concurrent.atomic.AtomicBoolean present = new java.util.concurrent.atomic.AtomicBoolean();
    XdsClusterLoadBalancer late = new XdsClusterLoadBalancer(helper, () -> {
      if (!present.get()) {
        throw new IllegalStateException("no xDS bootstrap");
      }
      return pool.acquire();
    }, TestRandom.seeded(1), TestRandom.seeded(2));
    helper.run(() -> late.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)));
    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);

    present.set(true);
    helper.run(() -> assertThat(late.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)).isOk()).isTrue());

    assertThat(pooled.activeWatch(ResourceTypes.CLUSTER, "payments")).isNotNull();
    assertThat(helper.state()).isEqualTo(ConnectivityState.CONNECTING);
  }

  @Test
  void anyFailureToCreateTheClientFailsRpcsInsteadOfThrowingIntoTheChannel() {
    XdsClusterLoadBalancer broken = new XdsClusterLoadBalancer(helper, () -> {
      throw new java.io.UncheckedIOException("channel_creds tls: /nonexistent.pem", new java.io.IOException("gone"));
    }, TestRandom.seeded(1), TestRandom.seeded(2));

    helper.run(() -> assertThat(broken.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)).getCode())
        .isEqualTo(Status.Code.UNAVAILABLE));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(helper.pick().getStatus().getDescription())
        .isEqualTo("cluster payments: channel_creds tls: /nonexistent.pem");
  }

  @Test
  void newClusterNameSwitchesGracefullyOnceTheNewTreeIsReady() {
    accept("old", Attributes.EMPTY);
    serve("old", 1);
    FakeSubchannel oldBackend = helper.subchannel(address(1));
    oldBackend.setState(ConnectivityState.READY);

    accept("new", Attributes.EMPTY);

    // The old tree serves while the new one connects.
    assertThat(pooled.activeWatch(ResourceTypes.CLUSTER, "old")).isNotNull();
    serve("new", 2);
    assertThat(helper.pick().getSubchannel()).isSameAs(oldBackend);

    helper.subchannel(address(2)).setState(ConnectivityState.READY);

    assertThat(helper.pick().getSubchannel()).isSameAs(helper.subchannel(address(2)));
    assertThat(pooled.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(1);
    assertThat(oldBackend.isShutdown()).isTrue();
  }

  @Test
  void newClusterThatFailsIsSwitchedToAtOnce() {
    accept("old", Attributes.EMPTY);
    serve("old", 1);
    helper.subchannel(address(1)).setState(ConnectivityState.READY);

    accept("missing", Attributes.EMPTY);
    pooled.activeWatch(ResourceTypes.CLUSTER, "missing").doesNotExist();

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription()).startsWith("cluster missing does not exist");
  }

  @Test
  void nameResolutionErrorBeforeAnyConfigFails() {
    helper.run(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("resolver broke")));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription()).contains("resolver broke");
  }

  @Test
  void emptyAddressListIsNormal() {
    helper.run(() -> assertThat(balancer.acceptResolvedAddresses(resolved("payments", Attributes.EMPTY)).isOk())
        .isTrue());

    assertThat(helper.state()).isEqualTo(ConnectivityState.CONNECTING);
  }

  private void serve(String cluster, int endpointN) {
    pooled.activeWatch(ResourceTypes.CLUSTER, cluster).update(ClusterUpdate.of(cluster, cluster + "-eds"));
    pooled.activeWatch(ResourceTypes.ENDPOINTS, cluster + "-eds").update(new EndpointsUpdate(cluster + "-eds",
        List.of(new Locality(zone("a"), 0, 1, List.of(endpoint(endpointN)))), List.of(), 140));
  }

  private void accept(String cluster, Attributes attributes) {
    helper.run(() -> assertThat(balancer.acceptResolvedAddresses(resolved(cluster, attributes)).isOk()).isTrue());
  }

  private static ResolvedAddresses resolved(String cluster, Attributes attributes) {
    return ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setAttributes(attributes)
        .setLoadBalancingPolicyConfig(ClusterPolicyConfig.forCluster(cluster))
        .build();
  }
}
