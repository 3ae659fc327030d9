package io.jxds.balancer.internal.endpoint;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.Attributes;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final EndpointBalancer balancer =
      new EndpointBalancer(helper, "c[child1] zone-a", TestRandom.seeded(1));

  private void accept(Endpoint... endpoints) {
    helper.run(() -> balancer.acceptConfig(new EndpointGroup(List.of(endpoints))));
  }

  @Test
  void createsOneConnectingSubchannelPerUsableEndpoint() {
    accept(endpoint(1), endpoint(2, HealthStatus.UNKNOWN), endpoint(3, HealthStatus.UNHEALTHY),
        endpoint(4, HealthStatus.DRAINING), endpoint(5, HealthStatus.DEGRADED));

    assertThat(helper.subchannels).extracting(FakeSubchannel::address)
        .containsExactly(address(1), address(2));
    assertThat(helper.subchannels).allSatisfy(s -> assertThat(s.connectionRequests()).isEqualTo(1));
    assertThat(helper.state()).isEqualTo(CONNECTING);
    assertThat(helper.picker()).isSameAs(QueuingPicker.INSTANCE);
  }

  @Test
  void acceptsEmptyAddressListWithConfig() {
    Status[] status = new Status[1];
    helper.run(() -> status[0] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setAttributes(Attributes.EMPTY)
        .setLoadBalancingPolicyConfig(new EndpointGroup(List.of(endpoint(1))))
        .build()));
    assertThat(status[0].isOk()).isTrue();
    assertThat(helper.subchannels).hasSize(1);
  }

  @Test
  void rejectsForeignConfigWithUnavailable() {
    Status[] status = new Status[1];
    helper.run(() -> status[0] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of()).setLoadBalancingPolicyConfig("nonsense").build()));
    assertThat(status[0].getCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void weightOnlyUpdateTouchesNoConnection() {
    accept(endpoint(1, 1), endpoint(2, 1));
    helper.subchannels.forEach(s -> s.setState(READY));
    SubchannelPicker before = helper.picker();

    accept(endpoint(1, 3), endpoint(2, 1));

    assertThat(helper.subchannels).hasSize(2).noneMatch(FakeSubchannel::isShutdown);
    assertThat(helper.subchannels).allSatisfy(s -> assertThat(s.connectionRequests()).isEqualTo(1));
    assertThat(helper.picker()).isNotSameAs(before);
    Map<SocketAddress, Integer> counts = helper.pickCounts(400);
    assertThat(counts.get(address(1))).isEqualTo(300);
  }

  @Test
  void updatesAreDiffedByAddress() {
    accept(endpoint(1), endpoint(2));
    FakeSubchannel kept = helper.subchannel(address(2));
    FakeSubchannel removed = helper.subchannel(address(1));

    accept(endpoint(2), endpoint(3), endpoint(4, HealthStatus.UNHEALTHY));

    assertThat(removed.isShutdown()).isTrue();
    assertThat(kept.isShutdown()).isFalse();
    assertThat(helper.subchannel(address(2))).isSameAs(kept);
    assertThat(helper.liveSubchannels()).extracting(FakeSubchannel::address)
        .containsExactly(address(2), address(3));
  }

  @Test
  void endpointTurningUnhealthyLosesItsSubchannel() {
    accept(endpoint(1), endpoint(2));
    accept(endpoint(1), endpoint(2, HealthStatus.UNHEALTHY));
    assertThat(helper.subchannel(address(2))).isNull();
  }

  @Test
  void readyPickerOnlyPicksReadySubchannels() {
    accept(endpoint(1), endpoint(2), endpoint(3));
    helper.subchannel(address(2)).setState(READY);

    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(30)).containsOnlyKeys(address(2));
  }

  @Test
  void idleSubchannelIsAskedToConnect() {
    accept(endpoint(1));
    FakeSubchannel s = helper.subchannel(address(1));
    s.setState(READY);
    s.setState(IDLE);
    assertThat(s.connectionRequests()).isEqualTo(2);
    assertThat(helper.state()).isEqualTo(CONNECTING);
  }

  @Test
  void allFailedIsTransientFailureCarryingTheLastConnectionError() {
    accept(endpoint(1), endpoint(2));
    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    assertThat(helper.state()).isEqualTo(CONNECTING);
    helper.subchannel(address(2)).fail(
        Status.UNAVAILABLE.withDescription("io exception").withCause(new IOException("refused")));

    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    PickResult pick = helper.pick();
    assertThat(pick.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(pick.getStatus().getDescription())
        .contains("c[child1] zone-a", "all 2 endpoints unreachable", "io exception");
    assertThat(pick.getStatus().getCause()).hasMessage("refused");
  }

  @Test
  void transientFailureIsStickyUntilASubchannelIsReady() {
    accept(endpoint(1), endpoint(2));
    helper.subchannels.forEach(s -> s.setState(TRANSIENT_FAILURE));
    int updates = helper.updates.size();

    // gRFC A62: retrying subchannels do not turn the leaf back to CONNECTING.
    helper.subchannels.forEach(s -> s.setState(CONNECTING));
    helper.subchannels.forEach(s -> s.setState(IDLE));
    assertThat(helper.updates).hasSize(updates);
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);

    helper.subchannel(address(2)).setState(READY);
    assertThat(helper.state()).isEqualTo(READY);
  }

  @Test
  void noUsableEndpointIsTransientFailure() {
    accept(endpoint(1, HealthStatus.UNHEALTHY));
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(((FailingPicker) helper.picker()).status().getDescription())
        .contains("no usable endpoint");
  }

  @Test
  void nonReadyChurnDoesNotPushANewPicker() {
    accept(endpoint(1), endpoint(2));
    helper.subchannel(address(1)).setState(READY);
    int updates = helper.updates.size();

    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);
    helper.subchannel(address(2)).setState(CONNECTING);

    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void aBurstOfQueuedSubchannelReportsBuildsOnePicker() {
    accept(endpoint(1), endpoint(2), endpoint(3));
    int updates = helper.updates.size();

    // Three reports queued on the context at once, as when connections come up together.
    helper.run(() -> helper.subchannels.forEach(s -> s.setState(READY)));

    assertThat(helper.updates).hasSize(updates + 1);
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(30)).containsOnlyKeys(address(1), address(2), address(3));
  }

  @Test
  void resolutionErrorKeepsServingExistingSubchannels() {
    accept(endpoint(1));
    helper.subchannel(address(1)).setState(READY);
    SubchannelPicker picker = helper.picker();
    helper.run(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("x")));
    assertThat(helper.picker()).isSameAs(picker);
  }

  @Test
  void shutdownClosesEverySubchannel() {
    accept(endpoint(1), endpoint(2));
    helper.run(balancer::shutdown);
    assertThat(helper.subchannels).allMatch(FakeSubchannel::isShutdown);
  }

  @Test
  void endpointSharesFollowWeightsOver100kPicks() {
    long[] weights = {1, 2, 3, 4, 10};
    Endpoint[] endpoints = new Endpoint[weights.length];
    for (int i = 0; i < weights.length; i++) {
      endpoints[i] = endpoint(i + 1, weights[i]);
    }
    accept(endpoints);
    helper.subchannels.forEach(s -> s.setState(READY));

    Map<SocketAddress, Integer> counts = helper.pickCounts(100_000);

    for (int i = 0; i < weights.length; i++) {
      double share = counts.get(address(i + 1)) / 100_000.0;
      assertThat(share * 100).as("endpoint %d", i).isCloseTo(weights[i] * 100 / 20.0, within(1.0));
    }
  }

  @Test
  void pickSequenceIsSmooth() {
    accept(endpoint(1, 6), endpoint(2, 3), endpoint(3, 1));
    helper.subchannels.forEach(s -> s.setState(READY));
    SubchannelPicker picker = helper.picker();
    int n = 1000;
    SocketAddress[] picks = new SocketAddress[n];
    for (int i = 0; i < n; i++) {
      picks[i] = ((FakeSubchannel) picker.pickSubchannel(FakeLbHelper.ARGS).getSubchannel()).address();
    }
    double[] shares = {0.6, 0.3, 0.1};
    for (int window : new int[] {3, 5, 10, 20}) {
      for (int start = 0; start + window <= n; start++) {
        for (int e = 0; e < 3; e++) {
          int count = 0;
          for (int k = start; k < start + window; k++) {
            if (picks[k].equals(address(e + 1))) {
              count++;
            }
          }
          assertThat(count).isLessThanOrEqualTo((int) Math.ceil(shares[e] * window) + 1);
        }
      }
    }
  }

  @Test
  void concurrentPicksStayInBoundsAndKeepShares() throws Exception {
    accept(endpoint(1, 1), endpoint(2, 3));
    helper.subchannels.forEach(s -> s.setState(READY));
    SubchannelPicker picker = helper.picker();
    int[][] counts = new int[4][2];
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 40_000; i++) {
          SocketAddress a = ((FakeSubchannel) picker.pickSubchannel(FakeLbHelper.ARGS).getSubchannel()).address();
          counts[id][a.equals(address(1)) ? 0 : 1]++;
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    int first = 0;
    for (int[] c : counts) {
      first += c[0];
    }
    assertThat(first / 160_000.0 * 100).isCloseTo(25.0, within(1.0));
  }
}
