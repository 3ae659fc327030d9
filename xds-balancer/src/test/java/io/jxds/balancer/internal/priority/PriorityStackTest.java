package io.jxds.balancer.internal.priority;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three layers together, priority → locality → endpoint, over fake subchannels. */
class PriorityStackTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final PriorityBalancer balancer = new PriorityBalancer(helper, TestRandom.seeded(3));

  private static final LocalityGroup P0 =
      LocalityGroup.of(locality("a", 1, endpoint(1)), locality("b", 1, endpoint(2)));
  private static final LocalityGroup P1 = LocalityGroup.of(locality("c", 1, endpoint(3)));

  private void accept(LocalityGroup... priorities) {
    helper.run(() -> balancer.acceptConfig(PriorityConfig.of("c", List.of(priorities))));
  }

  @Test
  void onlyPriorityZeroConnectsAtFirst() {
    accept(P0, P1);
    assertThat(helper.subchannels).extracting(FakeSubchannel::address)
        .containsExactly(address(1), address(2));
  }

  @Test
  void failoverAndFailbackMoveTrafficAndKeepConnections() {
    accept(P0, P1);
    helper.subchannel(address(1)).setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(1));

    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);
    FakeSubchannel p1 = helper.subchannel(address(3));
    assertThat(p1).isNotNull();
    p1.setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(3));

    helper.subchannel(address(2)).setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(2));
    assertThat(p1.isShutdown()).isFalse();
    helper.forward(15, MINUTES);
    assertThat(p1.isShutdown()).isTrue();
  }

  @Test
  void timerFailoverLeavesThePriorityZeroSubchannelsConnecting() {
    accept(P0, P1);
    helper.forward(10, SECONDS);
    assertThat(helper.subchannel(address(3))).isNotNull();
    assertThat(helper.subchannel(address(1)).isShutdown()).isFalse();

    helper.subchannel(address(1)).setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(1));
  }

  @Test
  void renumberedPriorityKeepsItsSubchannels() {
    accept(P0, P1);
    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);
    FakeSubchannel p1 = helper.subchannel(address(3));
    p1.setState(READY);

    accept(P1); // priority 0 disappears, priority 1 moves up

    assertThat(helper.subchannel(address(1))).isNull();
    assertThat(helper.subchannel(address(3))).isSameAs(p1);
    assertThat(p1.connectionRequests()).isEqualTo(1);
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(3));
  }

  @Test
  void everyEndpointDownGivesUnavailableNamingClusterLocalityAndError() {
    accept(P0, P1);
    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);
    helper.subchannel(address(3)).setState(TRANSIENT_FAILURE);

    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription())
        .contains("cluster c", "all 2 priorities failed", "c[child2]", "zone=\"c\"",
            "connection refused: " + address(3));
  }

  /**
   * Failback as a real channel sees it, replaying what grpc's subchannels report when priority
   * 0's two servers die and one comes back (READY, IDLE on the lost connection, a refused attempt,
   * then attempts after each reconnect backoff, the last one READY): each subchannel is asked to
   * reconnect at once when it falls IDLE, and never again (its own backoff paces the retries);
   * priority 1 takes over without waiting for the failover timer; and the first priority-0
   * subchannel READY serves the very next pick, the other still failing, with no time passing and
   * no subchannel recreated.
   */
  @Test
  void failbackServesTheFirstReadyEndpointAtOnceWithTheSameSubchannels() {
    accept(LocalityGroup.of(locality("a", 1, endpoint(1), endpoint(2))), P1);
    FakeSubchannel s1 = helper.subchannel(address(1));
    FakeSubchannel s2 = helper.subchannel(address(2));
    s1.setState(READY);
    s2.setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(1), address(2));
    int asked1 = s1.connectionRequests();
    int asked2 = s2.connectionRequests();

    for (FakeSubchannel s : List.of(s1, s2)) { // both servers killed
      s.setState(IDLE);
      s.setState(CONNECTING);
      s.setState(TRANSIENT_FAILURE);
    }
    assertThat(s1.connectionRequests()).isEqualTo(asked1 + 1);
    assertThat(s2.connectionRequests()).isEqualTo(asked2 + 1);
    FakeSubchannel p1 = helper.subchannel(address(3));
    p1.setState(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(3));

    for (FakeSubchannel s : List.of(s1, s2)) { // the first retry, after ~1 s, is refused too
      s.setState(CONNECTING);
      s.setState(TRANSIENT_FAILURE);
    }
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(3));

    s2.setState(CONNECTING); // the second retry: the server listens again
    s2.setState(READY);

    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(2));
    assertThat(helper.subchannels).hasSize(3).doesNotHaveDuplicates();
    assertThat(helper.subchannels).noneMatch(FakeSubchannel::isShutdown);
    assertThat(s1.connectionRequests()).isEqualTo(asked1 + 1);
    assertThat(s2.connectionRequests()).isEqualTo(asked2 + 1);
    assertThat(helper.clock.nanoTime()).isZero();
  }
}
