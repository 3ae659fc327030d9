package io.jxds.balancer.internal.priority;

import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cluster that changes its endpoint-picking policy: the priority children switch gracefully. */
class PolicySwitchTest {
  private static final EndpointPolicy RING = new EndpointPolicy(LbPolicy.RingHash.defaults(), "");
  private static final EndpointPolicy LEAST = new EndpointPolicy(LbPolicy.LeastRequest.defaults(), "");

  private final FakeLbHelper helper = new FakeLbHelper();
  private final PriorityBalancer balancer =
      new PriorityBalancer(helper, TestRandom.seeded(1), TestRandom.seeded(2));

  private void accept(EndpointPolicy policy) {
    LocalityGroup group = new LocalityGroup(
        List.of(locality("a", 1, endpoint(1), endpoint(2)), locality("b", 1, endpoint(3))), policy);
    helper.run(() -> balancer.acceptConfig(PriorityConfig.of("c", List.of(group))));
  }

  private static final PickSubchannelArgs HASH_7 =
      FakeLbHelper.args(CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, 7L), new Metadata());

  @Test
  void roundRobinToLeastRequestKeepsEverySubchannel() {
    accept(EndpointPolicy.ROUND_ROBIN);
    helper.readyAll();
    List<FakeSubchannel> before = helper.liveSubchannels();
    assertThat(helper.pick().getStreamTracerFactory()).as("round robin counts nothing").isNull();

    accept(LEAST);

    assertThat(helper.liveSubchannels()).containsExactlyElementsOf(before);
    assertThat(helper.state()).isEqualTo(READY);
    // Least request's picks carry the tracer that counts each endpoint's outstanding RPCs.
    assertThat(helper.pick().getStreamTracerFactory()).isNotNull();
  }

  @Test
  void ringHashBackToRoundRobinKeepsTheRingServingUntilTheNewChildIsReady() {
    accept(RING);
    helper.pick(); // a random hash: no endpoint READY, so the picked one is asked to connect
    helper.readyAll();
    assertThat(helper.state()).isEqualTo(READY);
    SubchannelPicker ringPicker = helper.picker();
    PickResult ringPick = ringPicker.pickSubchannel(HASH_7);
    List<FakeSubchannel> ringSubchannels = helper.liveSubchannels();

    accept(EndpointPolicy.ROUND_ROBIN);

    // The locality tree connects; until one of its endpoints is READY the ring keeps serving.
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.picker()).isSameAs(ringPicker);
    assertThat(ringSubchannels).noneMatch(FakeSubchannel::isShutdown);
    assertThat(helper.picker().pickSubchannel(HASH_7).getSubchannel()).isSameAs(ringPick.getSubchannel());

    helper.readyAll();

    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.picker()).isNotSameAs(ringPicker);
    assertThat(ringSubchannels).allMatch(FakeSubchannel::isShutdown);
    assertThat(helper.pickCounts(300)).containsOnlyKeys(address(1), address(2), address(3));
  }

  @Test
  void roundRobinToRingHashNeverReportsFailureAndServesFromTheRing() {
    accept(EndpointPolicy.ROUND_ROBIN);
    helper.readyAll();
    List<FakeSubchannel> roundRobin = helper.liveSubchannels();
    int updatesBefore = helper.updates.size();

    accept(RING);
    helper.readyAll();
    helper.picker().pickSubchannel(HASH_7);
    helper.readyAll();

    assertThat(helper.updates.subList(updatesBefore, helper.updates.size()))
        .noneMatch(u -> u.state() == TRANSIENT_FAILURE);
    assertThat(roundRobin).allMatch(FakeSubchannel::isShutdown);
    PickResult first = helper.picker().pickSubchannel(HASH_7);
    assertThat(first.getSubchannel()).isNotNull();
    for (int i = 0; i < 20; i++) {
      assertThat(helper.picker().pickSubchannel(HASH_7).getSubchannel()).isSameAs(first.getSubchannel());
    }
  }
}
