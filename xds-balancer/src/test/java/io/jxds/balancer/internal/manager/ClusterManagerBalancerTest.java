package io.jxds.balancer.internal.manager;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.testing.FakeLbHelper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterManagerBalancerTest {
  private static final Attributes.Key<String> MARK = Attributes.Key.create("test.mark");

  private final FakeLbHelper helper = new FakeLbHelper();
  /** Every child ever made, by cluster; a cluster made twice has the later child. */
  private final Map<String, FakeChild> children = new LinkedHashMap<>();
  private final List<FakeChild> made = new ArrayList<>();
  private final ClusterManagerBalancer balancer = new ClusterManagerBalancer(helper, new LoadBalancer.Factory() {
    @Override
    public LoadBalancer newLoadBalancer(LoadBalancer.Helper childHelper) {
      FakeChild child = new FakeChild(childHelper);
      made.add(child);
      return child;
    }
  });

  @Test
  void eachClusterGetsOneChildWithItsOwnConfigAndTheResolvedAttributes() {
    accept("a", "b");

    assertThat(children).containsOnlyKeys("a", "b");
    assertThat(made).hasSize(2);
    assertThat(children.get("a").configs).containsExactly(ClusterPolicyConfig.forCluster("a"));
    assertThat(children.get("b").lastAttributes.get(MARK)).isEqualTo("resolved");
  }

  @Test
  void aClusterThatStaysKeepsItsChildAndARemovedOneIsShutDown() {
    accept("a", "b");
    FakeChild a = children.get("a");
    FakeChild b = children.get("b");

    accept("a", "c");

    assertThat(children.get("a")).isSameAs(a);
    assertThat(a.shutdown).isFalse();
    assertThat(a.configs).hasSize(2);
    assertThat(b.shutdown).isTrue();
    assertThat(made).hasSize(3);
  }

  @Test
  void eachCallGoesToThePickerOfTheClusterItsRouteChose() {
    accept("a", "b");
    PickResult fromA = PickResult.withError(Status.UNAVAILABLE.withDescription("from a"));
    PickResult fromB = PickResult.withError(Status.UNAVAILABLE.withDescription("from b"));
    report("a", READY, fromA);
    report("b", READY, fromB);

    assertThat(pick("a")).isSameAs(fromA);
    assertThat(pick("b")).isSameAs(fromB);
  }

  @Test
  void callsToANewClusterQueueWhileItConnectsAndFlowOnceItIsReady() {
    accept("a");
    report("a", READY, PickResult.withNoResult());

    accept("a", "c");

    assertThat(pick("c").hasResult()).isFalse();
    assertThat(pick("c").getStatus().isOk()).isTrue();
    report("c", CONNECTING, PickResult.withNoResult());
    assertThat(pick("c").getStatus().isOk()).isTrue();
    PickResult served = PickResult.withError(Status.UNAVAILABLE.withDescription("served by c"));
    report("c", READY, served);
    assertThat(pick("c")).isSameAs(served);
  }

  @Test
  void aCallToAClusterTheManagerDoesNotServeIsDroppedNamingTheCluster() {
    accept("a");

    PickResult result = pick("gone");

    assertThat(result.isDrop()).isTrue();
    assertThat(result.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(result.getStatus().getDescription()).contains("cluster gone");
  }

  @Test
  void aCallWithNoChosenClusterIsDropped() {
    accept("a");

    PickResult result = helper.picker().pickSubchannel(FakeLbHelper.ARGS);

    assertThat(result.isDrop()).isTrue();
    assertThat(result.getStatus().getDescription()).contains("no chosen cluster");
  }

  @Test
  void theStateIsReadyIfAnyChildIsReadyElseConnectingElseIdleElseFailure() {
    accept("a", "b");
    assertThat(helper.state()).isEqualTo(CONNECTING);

    report("a", TRANSIENT_FAILURE, PickResult.withError(Status.UNAVAILABLE));
    assertThat(helper.state()).isEqualTo(CONNECTING);
    report("b", IDLE, PickResult.withNoResult());
    assertThat(helper.state()).isEqualTo(IDLE);
    report("b", TRANSIENT_FAILURE, PickResult.withError(Status.UNAVAILABLE));
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    report("a", READY, PickResult.withNoResult());
    assertThat(helper.state()).isEqualTo(READY);
  }

  @Test
  void aChildRepeatingItsStateAndPickerPushesNothing() {
    accept("a");
    SubchannelPicker picker = picker(PickResult.withNoResult());
    helper.run(() -> children.get("a").helper.updateBalancingState(READY, picker));
    int updates = helper.updates.size();

    helper.run(() -> children.get("a").helper.updateBalancingState(READY, picker));

    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void aRemovedChildsLateReportChangesNothing() {
    accept("a", "b");
    FakeChild b = children.get("b");
    accept("a");
    int updates = helper.updates.size();

    helper.run(() -> b.helper.updateBalancingState(READY, picker(PickResult.withNoResult())));

    assertThat(helper.updates).hasSize(updates);
    assertThat(pick("b").isDrop()).isTrue();
  }

  @Test
  void noClusterAtAllIsATransientFailure() {
    accept();

    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(pick("a").getStatus().getDescription()).contains("names no cluster");
  }

  @Test
  void aResolutionErrorBeforeAnyClusterFailsCallsNamingIt() {
    helper.run(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("no listener")));

    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(((FailingPicker) helper.picker()).status().getDescription()).contains("no listener");
  }

  @Test
  void aResolutionErrorGoesToEveryChild() {
    accept("a", "b");

    helper.run(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("blip")));

    assertThat(children.get("a").errors).hasSize(1);
    assertThat(children.get("b").errors).hasSize(1);
  }

  @Test
  void aChildsRefusalIsReturnedAndTheOtherChildrenStillGetTheirConfig() {
    accept("a");
    children.get("a").refuse = Status.UNAVAILABLE.withDescription("a has no client");

    Status status = accept("a", "b");

    assertThat(status.getDescription()).isEqualTo("a has no client");
    assertThat(children.get("b").configs).hasSize(1);
  }

  @Test
  void shutdownShutsEveryChildDown() {
    accept("a", "b");

    helper.run(balancer::shutdown);

    assertThat(made).allSatisfy(child -> assertThat(child.shutdown).isTrue());
  }

  private Status accept(String... clusters) {
    Status[] status = new Status[1];
    helper.run(() -> status[0] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setAttributes(Attributes.newBuilder().set(MARK, "resolved").build())
        .setLoadBalancingPolicyConfig(ClusterManagerConfig.of(List.of(clusters)))
        .build()));
    return status[0];
  }

  private void report(String cluster, ConnectivityState state, PickResult result) {
    helper.run(() -> children.get(cluster).helper.updateBalancingState(state, picker(result)));
  }

  private PickResult pick(String cluster) {
    return helper.picker().pickSubchannel(args(cluster));
  }

  private static PickSubchannelArgs args(String cluster) {
    return FakeLbHelper.args(CallOptions.DEFAULT.withOption(ChosenCluster.KEY, ChosenCluster.of(cluster)),
        new Metadata());
  }

  private static SubchannelPicker picker(PickResult result) {
    return new SubchannelPicker() {
      @Override
      public PickResult pickSubchannel(PickSubchannelArgs args) {
        return result;
      }
    };
  }

  /** A child that records what it is given; the test reports its states through its helper. */
  private final class FakeChild extends LoadBalancer {
    final Helper helper;
    final List<ClusterPolicyConfig> configs = new ArrayList<>();
    final List<Status> errors = new ArrayList<>();
    Attributes lastAttributes;
    Status refuse = Status.OK;
    boolean shutdown;

    FakeChild(Helper helper) {
      this.helper = helper;
    }

    @Override
    public Status acceptResolvedAddresses(ResolvedAddresses resolved) {
      ClusterPolicyConfig config = (ClusterPolicyConfig) resolved.getLoadBalancingPolicyConfig();
      configs.add(config);
      lastAttributes = resolved.getAttributes();
      children.put(config.cluster(), this);
      return refuse;
    }

    @Override
    public void handleNameResolutionError(Status error) {
      errors.add(error);
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }
  }
}
