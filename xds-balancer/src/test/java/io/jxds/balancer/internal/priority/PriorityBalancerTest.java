package io.jxds.balancer.internal.priority;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.testing.FakeLbHelper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** gRFC A56 rules, with fake children whose states the test sets directly. */
class PriorityBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final Map<String, FakeChild> children = new LinkedHashMap<>();
  private final PriorityBalancer balancer = new PriorityBalancer(helper, (childHelper, name) -> {
    FakeChild child = new FakeChild(childHelper, name);
    children.put(name, child);
    return child;
  });

  private static final LocalityGroup A = LocalityGroup.of(locality("a", 1, endpoint(1)));
  private static final LocalityGroup B = LocalityGroup.of(locality("b", 1, endpoint(2)));
  private static final LocalityGroup C = LocalityGroup.of(locality("c", 1, endpoint(3)));

  private void accept(LocalityGroup... priorities) {
    accept(PriorityConfig.of("c", List.of(priorities)));
  }

  private void accept(PriorityConfig config) {
    helper.run(() -> balancer.acceptConfig(config));
  }

  private FakeChild child(int n) {
    return children.get("c[child" + n + "]");
  }

  @Test
  void childrenStartLazilyFromPriorityZero() {
    accept(A, B, C);

    assertThat(children).containsOnlyKeys("c[child1]");
    assertThat(child(1).configs).containsExactly(A);
    assertThat(helper.state()).isEqualTo(CONNECTING);
  }

  @Test
  void acceptsEmptyAddressListAndRejectsForeignConfig() {
    Status[] status = new Status[2];
    helper.run(() -> {
      status[0] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
          .setAddresses(List.of())
          .setLoadBalancingPolicyConfig(PriorityConfig.of("c", List.of(A)))
          .build());
      status[1] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
          .setAddresses(List.of()).setLoadBalancingPolicyConfig(Map.of()).build());
    });
    assertThat(status[0].isOk()).isTrue();
    assertThat(status[1].getCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void transientFailureStartsTheNextPriorityWhileTheFailedOneKeepsTrying() {
    accept(A, B, C);
    child(1).report(TRANSIENT_FAILURE);

    assertThat(children).containsOnlyKeys("c[child1]", "c[child2]");
    assertThat(child(1).shutdown).isFalse();
    assertThat(helper.picker()).isSameAs(child(2).connectingPicker);

    child(2).report(READY);
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.picker()).isSameAs(child(2).readyPicker);
  }

  @Test
  void failoverTimerStartsTheNextPriorityAfterTenSeconds() {
    accept(A, B);
    child(1).report(CONNECTING);

    helper.forward(9_999, MILLISECONDS);
    assertThat(children).hasSize(1);
    helper.forward(1, MILLISECONDS);

    assertThat(children).containsOnlyKeys("c[child1]", "c[child2]");
    assertThat(child(1).shutdown).isFalse();
    // The new child's picker while it connects (its own timer is running).
    assertThat(helper.picker()).isSameAs(child(2).connectingPicker);
  }

  @Test
  void deactivatedChildKeepsItsRemainingFailoverTime() {
    accept(A, B, C);
    child(1).report(CONNECTING);
    helper.forward(10, SECONDS); // priority 0 timed out: priority 1 starts with its own timer
    child(2).report(CONNECTING);
    helper.forward(1, SECONDS);
    child(1).report(READY); // failback: priority 1 deactivated, 9 s left on its timer

    child(1).report(TRANSIENT_FAILURE);

    // Priority 1 is reactivated within its timer: it is used, and priority 2 is not started.
    assertThat(children).doesNotContainKey("c[child3]");
    assertThat(helper.picker()).isSameAs(child(2).connectingPicker);
    helper.forward(9, SECONDS);
    assertThat(children).containsKey("c[child3]");
  }

  @Test
  void failoverTimeoutComesFromTheConfig() {
    accept(new PriorityConfig("c", List.of(A, B), Duration.ofSeconds(2), Duration.ofMinutes(1)));
    helper.forward(2, SECONDS);
    assertThat(children).hasSize(2);
  }

  @Test
  void higherPriorityReadyAfterTimeoutIsUsedAtOnce() {
    accept(A, B);
    helper.forward(10, SECONDS);
    child(1).report(READY);
    assertThat(helper.picker()).isSameAs(child(1).readyPicker);
  }

  @Test
  void duplicateConnectingDoesNotRestartTheTimer() {
    accept(A, B);
    child(1).report(CONNECTING);
    helper.forward(5, SECONDS);
    child(1).report(CONNECTING);
    helper.forward(5, SECONDS);

    assertThat(children).hasSize(2);
  }

  @Test
  void connectingAfterReadyRestartsTheTimer() {
    accept(A, B);
    helper.forward(1, SECONDS);
    child(1).report(READY);
    helper.forward(1, SECONDS);
    child(1).report(CONNECTING);

    helper.forward(9_999, MILLISECONDS);
    assertThat(children).hasSize(1);
    assertThat(helper.state()).isEqualTo(CONNECTING);
    helper.forward(1, MILLISECONDS);
    assertThat(children).hasSize(2);
  }

  @Test
  void connectingAfterFailureDoesNotRestartTheTimer() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);
    child(1).report(CONNECTING);

    // Had child1 got a fresh timer, it would be chosen again (a pending timer wins).
    assertThat(helper.picker()).isSameAs(child(2).readyPicker);
    assertThat(helper.clock.numPendingTasks()).isZero();
  }

  @Test
  void idleCountsAsUsable() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(CONNECTING);
    child(1).report(IDLE);
    assertThat(helper.state()).isEqualTo(IDLE);
    assertThat(helper.picker()).isSameAs(child(1).idlePicker);
  }

  @Test
  void servingPriorityListenerHearsFailoverAndFailback() {
    List<Integer> serving = new ArrayList<>();
    balancer.onServingPriority(serving::add);
    accept(A, B);
    child(1).report(READY);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);
    child(1).report(READY);
    child(1).report(READY);

    assertThat(serving).containsExactly(0, 1, 0);
  }

  @Test
  void failbackDeactivatesLowerPrioritiesAndClosesThemAfterRetention() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);

    child(1).report(READY);

    assertThat(helper.picker()).isSameAs(child(1).readyPicker);
    assertThat(child(2).shutdown).isFalse(); // kept, connections open, in case it is needed
    helper.forward(15, MINUTES);
    assertThat(child(2).shutdown).isTrue();
  }

  @Test
  void deactivatedChildIsReusedWithinRetention() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);
    child(1).report(READY);
    helper.forward(10, MINUTES);

    child(1).report(TRANSIENT_FAILURE);

    assertThat(children).hasSize(2); // no new child
    assertThat(helper.picker()).isSameAs(child(2).readyPicker);
    helper.forward(60, MINUTES);
    assertThat(child(2).shutdown).isFalse(); // retention cancelled on reactivation
  }

  @Test
  void childRecreatedAfterRetentionExpiryKeepsItsName() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    FakeChild first = child(2);
    first.report(READY);
    child(1).report(READY);
    helper.forward(15, MINUTES);
    child(1).report(TRANSIENT_FAILURE);

    assertThat(child(2)).isNotSameAs(first);
    assertThat(child(2).configs).containsExactly(B);
  }

  @Test
  void allFailedPickerNamesTheClusterAndTheLastError() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).fail(Status.UNAVAILABLE.withDescription("zone b: connection refused"));

    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription())
        .contains("cluster c", "all 2 priorities failed", "zone b: connection refused");
  }

  @Test
  void removingThePriorityInUseHandsOverToTheNextAvailable() {
    accept(A, B, C);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);

    accept(A, C);

    assertThat(child(2).shutdown).isTrue(); // gRFC A115: removed at once
    assertThat(children).containsKey("c[child3]");
    assertThat(child(3).configs).containsExactly(C);
    assertThat(helper.picker()).isSameAs(child(3).connectingPicker);
  }

  @Test
  void renumberedPriorityKeepsItsChild() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);

    accept(B); // priority 0 emptied: B is now priority 0

    assertThat(child(1).shutdown).isTrue();
    assertThat(child(2).shutdown).isFalse();
    assertThat(child(2).configs).containsExactly(B, B);
    assertThat(children).hasSize(2);
    assertThat(helper.picker()).isSameAs(child(2).readyPicker);
  }

  @Test
  void priorityAddedAboveTheOneInUseIsTriedFirst() {
    accept(B);
    child(1).report(READY);

    accept(A, B); // A56: the walk from priority 0 starts the new child and waits on its timer

    assertThat(child(2).configs).containsExactly(A);
    assertThat(helper.picker()).isSameAs(child(2).connectingPicker);
    child(2).report(TRANSIENT_FAILURE);
    assertThat(helper.picker()).isSameAs(child(1).readyPicker);
  }

  @Test
  void droppedNamesAreNeverReused() {
    accept(A);
    accept(B); // A's child closed; B gets a new name
    accept(A); // A is new again

    assertThat(children).containsOnlyKeys("c[child1]", "c[child2]", "c[child3]");
    assertThat(child(3).configs).containsExactly(A);
  }

  @Test
  void noPrioritiesIsTransientFailure() {
    accept(A);
    accept();

    assertThat(child(1).shutdown).isTrue();
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).contains("cluster c", "empty priority list");
    int updates = helper.updates.size();
    accept();
    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void unchangedStateIsNotPushedAgain() {
    accept(A, B);
    child(1).report(READY);
    int updates = helper.updates.size();

    child(1).report(READY);
    accept(A, B);

    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void lowerPriorityUpdatesDoNotReachTheChannel() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    child(2).report(READY);
    child(1).report(READY);
    int updates = helper.updates.size();

    child(2).report(TRANSIENT_FAILURE);

    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void resolutionErrorWithoutChildrenIsTransientFailure() {
    helper.run(() -> balancer.handleNameResolutionError(
        Status.UNAVAILABLE.withDescription("EDS resource does not exist")));
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription()).contains("does not exist");
  }

  @Test
  void resolutionErrorIsForwardedToChildren() {
    accept(A, B);
    child(1).report(TRANSIENT_FAILURE);
    Status error = Status.UNAVAILABLE.withDescription("boom");
    helper.run(() -> balancer.handleNameResolutionError(error));
    assertThat(child(1).errors).containsExactly(error);
    assertThat(child(2).errors).containsExactly(error);
  }

  @Test
  void shutdownClosesChildrenAndCancelsTimers() {
    accept(A, B);
    helper.run(balancer::shutdown);
    assertThat(child(1).shutdown).isTrue();
    assertThat(helper.clock.numPendingTasks()).isZero();
  }

  /** A child balancer that records what it is given and reports what the test says. */
  private final class FakeChild extends LoadBalancer {
    final Helper childHelper;
    final String name;
    final List<LocalityGroup> configs = new ArrayList<>();
    final List<Status> errors = new ArrayList<>();
    final SubchannelPicker readyPicker = new NamedPicker("ready");
    final SubchannelPicker connectingPicker = new NamedPicker("connecting");
    final SubchannelPicker idlePicker = new NamedPicker("idle");
    boolean shutdown;

    FakeChild(Helper childHelper, String name) {
      this.childHelper = childHelper;
      this.name = name;
    }

    void report(ConnectivityState state) {
      if (state == TRANSIENT_FAILURE) {
        fail(Status.UNAVAILABLE.withDescription(name + " failed"));
        return;
      }
      SubchannelPicker picker = switch (state) {
        case READY -> readyPicker;
        case IDLE -> idlePicker;
        default -> connectingPicker;
      };
      helper.run(() -> childHelper.updateBalancingState(state, picker));
    }

    void fail(Status status) {
      helper.run(() -> childHelper.updateBalancingState(TRANSIENT_FAILURE, new FailingPicker(status)));
    }

    @Override
    public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
      configs.add((LocalityGroup) resolvedAddresses.getLoadBalancingPolicyConfig());
      if (configs.size() == 1) {
        // Like a real child: its first report comes while it takes its first config.
        childHelper.updateBalancingState(CONNECTING, connectingPicker);
      }
      return Status.OK;
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

  private static final class NamedPicker extends SubchannelPicker {
    private final String name;

    NamedPicker(String name) {
      this.name = name;
    }

    @Override
    public PickResult pickSubchannel(PickSubchannelArgs args) {
      return PickResult.withNoResult();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
