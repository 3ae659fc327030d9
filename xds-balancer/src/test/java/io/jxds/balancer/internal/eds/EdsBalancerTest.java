package io.jxds.balancer.internal.eds;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.Locality;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EdsBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final String cluster = "payments-" + UUID.randomUUID(); // own circuit-breaker counter
  private final EdsBalancer balancer =
      new EdsBalancer(helper, xds, TestRandom.seeded(3), TestRandom.seeded(4));
  /** Pickers the channel had before the step under test. */
  private int updatesBefore;

  @Test
  void watchesTheEdsServiceNameAndConnectsUsableEndpointsOnly() {
    accept(config("payments-eds", 1024));

    assertThat(helper.state()).isEqualTo(ConnectivityState.CONNECTING);
    push("payments-eds", update(
        locality("a", 0, 1, endpoint(1), endpoint(2, HealthStatus.UNHEALTHY), endpoint(3, HealthStatus.UNKNOWN))));

    assertThat(helper.subchannels).extracting(FakeSubchannel::address).containsExactlyInAnyOrder(address(1),
        address(3));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(helper.pick().getSubchannel()).isSameAs(helper.subchannel(address(1)));
  }

  @Test
  void noUsableEndpointFailsNamingTheClusterAndClosesConnections() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    FakeSubchannel first = helper.subchannel(address(1));
    first.setState(ConnectivityState.READY);

    push("eds", update(locality("a", 0, 1, endpoint(1, HealthStatus.DRAINING))));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("cluster " + cluster + " has no usable endpoints");
    assertThat(first.isShutdown()).isTrue();
  }

  @Test
  void laterUpdateBringsAnEmptyClusterBack() {
    accept(config("eds", 1024));
    push("eds", update());
    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);

    push("eds", update(locality("a", 0, 1, endpoint(7))));
    helper.subchannel(address(7)).setState(ConnectivityState.READY);

    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(helper.pick().getSubchannel().getAllAddresses().get(0).getAddresses()).containsExactly(address(7));
  }

  @Test
  void emptyPrioritiesDropOutAndTheRestKeepTheirOrder() {
    accept(config("eds", 1024));
    // Priority 0 holds only an unhealthy endpoint: priority 1 becomes the first one used.
    push("eds", update(
        locality("a", 0, 1, endpoint(1, HealthStatus.UNHEALTHY)),
        locality("b", 1, 1, endpoint(2))));

    assertThat(helper.subchannels).extracting(FakeSubchannel::address).containsExactly(address(2));
  }

  @Test
  void missingAssignmentFailsNamingIt() {
    accept(config("gone-eds", 1024));

    xds.activeWatch(ResourceTypes.ENDPOINTS, "gone-eds").doesNotExist();

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription())
        .isEqualTo("cluster " + cluster + ": endpoints gone-eds do not exist (node id test-node)");
  }

  @Test
  void errorBeforeDataFailsWithIt() {
    accept(config("eds", 1024));

    xds.activeWatch(ResourceTypes.ENDPOINTS, "eds").error(Status.UNAVAILABLE
        .withDescription("stream failed; node id n"));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription()).isEqualTo("stream failed; node id n");
  }

  @Test
  void errorWithDataKeepsServing() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    int updates = helper.updates.size();

    xds.activeWatch(ResourceTypes.ENDPOINTS, "eds").error(Status.UNAVAILABLE.withDescription("lost"));

    assertThat(helper.updates).hasSize(updates);
    assertThat(helper.pick().getSubchannel()).isSameAs(helper.subchannel(address(1)));
  }

  @Test
  void newServiceNameRewatchesAndKeepsServingUntilItsDataArrives() {
    accept(config("old-eds", 1024));
    push("old-eds", update(locality("a", 0, 1, endpoint(1))));
    FakeSubchannel old = helper.subchannel(address(1));
    old.setState(ConnectivityState.READY);

    accept(config("new-eds", 1024));

    FakeXdsClient.Watch<EndpointsUpdate> oldWatch = firstWatch("old-eds");
    assertThat(oldWatch.cancelled()).isTrue();
    assertThat(helper.pick().getSubchannel()).isSameAs(old);

    push("new-eds", update(locality("a", 0, 1, endpoint(2))));
    helper.subchannel(address(2)).setState(ConnectivityState.READY);
    assertThat(old.isShutdown()).isTrue();
    assertThat(helper.pick().getSubchannel()).isSameAs(helper.subchannel(address(2)));
  }

  @Test
  void newRequestLimitAppliesWithoutNewConnections() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    int created = helper.subchannels.size();

    accept(config("eds", 0));

    PickResult refused = helper.pick();
    assertThat(refused.isDrop()).isTrue();
    assertThat(refused.getStatus().getDescription())
        .isEqualTo("cluster " + cluster + ": max concurrent requests 0 exceeded");
    assertThat(helper.subchannels).hasSize(created);
  }

  @Test
  void dropOverloadsApplyToPicks() {
    accept(config("eds", 1024));
    push("eds", new EndpointsUpdate("eds", List.of(locality("a", 0, 1, endpoint(1))),
        List.of(new DropOverload("lb", DropOverload.MILLION)), 140));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);

    PickResult pick = helper.pick();

    assertThat(pick.isDrop()).isTrue();
    assertThat(pick.getStatus().getDescription()).isEqualTo("dropped by load balancer: category lb");
  }

  @Test
  void oneUpdateHandsTheChannelOnePicker() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1, 1), endpoint(2, 1))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    helper.subchannel(address(2)).setState(ConnectivityState.READY);
    int before = helper.updates.size();

    push("eds", update(locality("a", 0, 1, endpoint(1, 3), endpoint(2, 1)))); // weights only

    assertThat(helper.updates).hasSize(before + 1);
  }

  @Test
  void newDropsAloneStillReachTheChannel() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    int before = helper.updates.size();

    push("eds", new EndpointsUpdate("eds", List.of(locality("a", 0, 1, endpoint(1))),
        List.of(new DropOverload("lb", DropOverload.MILLION)), 140));

    assertThat(helper.updates).hasSize(before + 1);
    assertThat(helper.pick().isDrop()).isTrue();
  }

  @Test
  void repeatedIdenticalConfigIsANoOp() {
    accept(config("eds", 1024));
    int updates = helper.updates.size();

    accept(config("eds", 1024));

    assertThat(xds.watches()).hasSize(1);
    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void shutdownCancelsTheWatchAndClosesConnections() {
    accept(config("eds", 1024));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    FakeSubchannel only = helper.subchannel(address(1));

    helper.run(balancer::shutdown);

    assertThat(firstWatch("eds").cancelled()).isTrue();
    assertThat(only.isShutdown()).isTrue();
  }

  // Istio's failover priorities: zone x at priority 0 and again, with other endpoints, at 1.
  private static final Locality P0_X = locality("x", 0, 1, endpoint(1), endpoint(2));
  private static final Locality P0_Y = locality("y", 0, 1, endpoint(5));
  private static final Locality P1_X = locality("x", 1, 1, endpoint(3), endpoint(4));
  private static final Locality P1_Z = locality("z", 1, 1, endpoint(7));

  @Test
  void updateOfTheFailedPriorityKeepsTheServingPriorityOfTheSameLocality() {
    List<FakeSubchannel> serving = failOverToPriorityOne(update(P0_X, P0_Y, P1_X, P1_Z));

    push("eds", update(P0_X, locality("y", 0, 1, endpoint(5), endpoint(6)), P1_X, P1_Z));

    assertKeepsServing(serving);
  }

  @Test
  void lowerPriorityWhoseOnlyLocalityIsAlsoAtPriorityZeroKeepsServing() {
    List<FakeSubchannel> serving = failOverToPriorityOne(update(P0_X, P0_Y, P1_X));

    push("eds", update(P0_X, locality("y", 0, 1, endpoint(5), endpoint(6)), P1_X));

    assertKeepsServing(serving);
  }

  @Test
  void failedPriorityMarkedUnhealthyMovesTheServingPriorityUpWithItsConnections() {
    List<FakeSubchannel> serving = failOverToPriorityOne(update(P0_X, P0_Y, P1_X, P1_Z));

    // The control plane's health checks catch up with priority 0: it drops out, 1 becomes 0.
    push("eds", update(
        locality("x", 0, 1, endpoint(1, HealthStatus.UNHEALTHY), endpoint(2, HealthStatus.UNHEALTHY)),
        locality("y", 0, 1, endpoint(5, HealthStatus.UNHEALTHY)),
        P1_X, P1_Z));

    assertKeepsServing(serving);
    assertThat(helper.subchannel(address(1))).isNull();
  }

  /** Priority 0's endpoints refuse connections, priority 1's are READY and serving. */
  private List<FakeSubchannel> failOverToPriorityOne(EndpointsUpdate update) {
    accept(config("eds", 1024));
    push("eds", update);
    for (Locality l : update.localities()) {
      if (l.priority() == 0) {
        l.endpoints().forEach(e -> helper.subchannel(e.address()).setState(ConnectivityState.TRANSIENT_FAILURE));
      }
    }
    List<FakeSubchannel> serving = new ArrayList<>();
    for (Locality l : update.localities()) {
      if (l.priority() == 1) {
        l.endpoints().forEach(e -> serving.add(helper.subchannel(e.address())));
      }
    }
    assertThat(serving).doesNotContainNull();
    serving.forEach(s -> s.setState(ConnectivityState.READY));
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(helper.pickCounts(12).keySet())
        .containsExactlyInAnyOrderElementsOf(serving.stream().map(FakeSubchannel::address).toList());
    updatesBefore = helper.updates.size();
    return serving;
  }

  private void assertKeepsServing(List<FakeSubchannel> serving) {
    for (FakeSubchannel s : serving) {
      assertThat(s.isShutdown()).as("%s shut down", s).isFalse();
      assertThat(helper.subchannel(s.address())).isSameAs(s);
    }
    // No CONNECTING (queuing) picker in between: every picker since serves priority 1.
    assertThat(helper.updates.subList(updatesBefore, helper.updates.size()))
        .extracting(FakeLbHelper.Update::state)
        .containsOnly(ConnectivityState.READY);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(helper.pickCounts(12).keySet())
        .containsExactlyInAnyOrderElementsOf(serving.stream().map(FakeSubchannel::address).toList());
  }

  @Test
  void countOfAPickThatNeverBecameAStreamIsGivenBackTwoSweepsAfterItsPickerWasReplaced() {
    accept(config("eds", 1));
    push("eds", update(locality("a", 0, 1, endpoint(1), endpoint(2))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(helper.pick().getSubchannel()).isNotNull(); // the channel drops this pick: no stream
    assertThat(helper.pick().isDrop()).as("its count fills the limit").isTrue();

    helper.subchannel(address(2)).setState(ConnectivityState.READY); // a new picker
    assertThat(helper.pick().isDrop()).as("the old picker's counts are kept a while").isTrue();
    helper.forward(PickerHandOver.SWEEP_SECONDS, TimeUnit.SECONDS);
    assertThat(helper.pick().isDrop()).isTrue();
    helper.forward(PickerHandOver.SWEEP_SECONDS, TimeUnit.SECONDS);

    assertThat(InFlightRequests.of(cluster, "eds").open()).isZero();
    assertThat(helper.pick().getSubchannel()).isNotNull();
  }

  @Test
  void shutdownGivesBackEveryCountItsPickersHold() {
    accept(config("eds", 5));
    push("eds", update(locality("a", 0, 1, endpoint(1))));
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    for (int i = 0; i < 3; i++) {
      assertThat(helper.pick().getSubchannel()).isNotNull();
    }
    assertThat(InFlightRequests.of(cluster, "eds").open()).isEqualTo(3);

    helper.run(balancer::shutdown);

    assertThat(InFlightRequests.of(cluster, "eds").open()).isZero();
    assertThat(helper.clock.numPendingTasks()).as("no sweep left scheduled").isZero();
  }

  private EdsConfig config(String edsServiceName, long maxRequests) {
    return new EdsConfig(cluster, edsServiceName, maxRequests, Duration.ofSeconds(10), Duration.ofMinutes(15));
  }

  private void accept(EdsConfig config) {
    helper.run(() -> assertThat(balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(config)
        .build()).isOk()).isTrue());
  }

  private void push(String serviceName, EndpointsUpdate update) {
    xds.activeWatch(ResourceTypes.ENDPOINTS, serviceName).update(update);
  }

  @SuppressWarnings("unchecked")
  private FakeXdsClient.Watch<EndpointsUpdate> firstWatch(String name) {
    return (FakeXdsClient.Watch<EndpointsUpdate>) xds.watches().stream()
        .filter(w -> w.name().equals(name)).findFirst().orElseThrow();
  }

  private static EndpointsUpdate update(Locality... localities) {
    return new EndpointsUpdate("eds", List.of(localities), List.of(), 140);
  }

  private static Locality locality(String zone, int priority, long weight, Endpoint... endpoints) {
    return new Locality(zone(zone), priority, weight, List.of(endpoints));
  }
}
