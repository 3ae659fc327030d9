package io.jxds.balancer.internal.eds;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ClientStreamTracer;
import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Outlier detection (gRFC A50) in the EDS layer: counted per endpoint across the cluster's tree. */
class EdsOutlierDetectionTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final String cluster = "payments-" + UUID.randomUUID();
  private final EdsBalancer balancer = new EdsBalancer(helper, xds, TestRandom.seeded(3), TestRandom.seeded(4));

  @Test
  void ejectedEndpointGetsNoPicksAndComesBackAfterTheEjectionTime() {
    accept(failurePercentage(2));
    push(update(locality("a", 0, endpoint(1), endpoint(2), endpoint(3))));
    readyAll(1, 2, 3);
    rpcs(300, address(1));
    assertThat(pickCounts(90)).containsKey(address(1));

    helper.forward(10, TimeUnit.SECONDS);

    assertThat(pickCounts(90)).containsOnlyKeys(address(2), address(3));
    helper.forward(40, TimeUnit.SECONDS); // the sweep after 30 s
    assertThat(pickCounts(90)).containsKeys(address(1), address(2), address(3));
  }

  @Test
  void priorityWhoseEndpointsAreAllEjectedFailsOverAndTrafficComesBack() {
    accept(failurePercentage(2));
    push(update(locality("a", 0, endpoint(1)), locality("b", 1, endpoint(2))));
    readyAll(1);
    rpcs(100, address(1));
    assertThat(helper.subchannel(address(2))).as("priority 1 not started yet").isNull();

    helper.forward(10, TimeUnit.SECONDS); // endpoint 1 ejected: priority 0 is TRANSIENT_FAILURE

    readyAll(2);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(pickCounts(10)).containsOnlyKeys(address(2));
    assertThat(helper.subchannel(address(1)).isShutdown()).as("its connection is kept").isFalse();
    helper.forward(40, TimeUnit.SECONDS);
    assertThat(pickCounts(10)).containsOnlyKeys(address(1));
  }

  @Test
  void dualStackEndpointIsCountedAndEjectedAsOneEndpoint() {
    // gRFC A61: outlier detection keys an endpoint by its set of addresses.
    accept(failurePercentage(2));
    Endpoint dual = new Endpoint(address(1), io.jxds.api.model.HealthStatus.HEALTHY, 1, "", "",
        List.of(address(101)));
    push(update(locality("a", 0, dual, endpoint(2), endpoint(3))));
    readyAll(1, 2, 3);
    rpcs(300, address(1));
    assertThat(pickCounts(90)).containsKey(address(1));

    helper.forward(10, TimeUnit.SECONDS);

    assertThat(pickCounts(90)).containsOnlyKeys(address(2), address(3));
  }

  @Test
  void endpointMovingToAnotherLocalityKeepsItsCounts() {
    accept(failurePercentage(3));
    push(update(locality("a", 0, endpoint(1), endpoint(2)), locality("b", 0, endpoint(3))));
    readyAll(1, 2, 3);
    rpcs(300, address(1));

    push(update(locality("a", 0, endpoint(2)), locality("b", 0, endpoint(3), endpoint(1))));
    FakeSubchannel moved = helper.liveSubchannels().stream()
        .filter(s -> s.address().equals(address(1))).findFirst().orElseThrow();
    moved.setState(ConnectivityState.READY);
    assertThat(pickCounts(90)).containsKey(address(1));
    helper.forward(10, TimeUnit.SECONDS);

    assertThat(pickCounts(90)).containsOnlyKeys(address(2), address(3));
  }

  @Test
  void assignmentUpdatesDoNotPostponeTheSweep() {
    // gRFC A50; grpc-java restarts the interval and zeroes the counts on every update.
    accept(failurePercentage(2));
    push(update(locality("a", 0, endpoint(1), endpoint(2), endpoint(3))));
    readyAll(1, 2, 3);
    rpcs(300, address(1));
    for (int i = 0; i < 9; i++) {
      helper.forward(1, TimeUnit.SECONDS);
      push(update(locality("a", 0, endpoint(1), endpoint(2), endpoint(3), endpoint(10 + i))));
    }
    helper.forward(1, TimeUnit.SECONDS);
    assertThat(pickCounts(90)).doesNotContainKey(address(1));
  }

  @Test
  void outlierDetectionTurnedOnLaterCountsAndEjects() {
    accept(new EdsConfig(cluster, "eds", 1024, Duration.ofSeconds(10), Duration.ofMinutes(15)));
    push(update(locality("a", 0, endpoint(1), endpoint(2), endpoint(3))));
    readyAll(1, 2, 3);

    accept(failurePercentage(2));
    helper.liveSubchannels().forEach(s -> s.setState(ConnectivityState.READY));
    rpcs(300, address(1));
    helper.forward(10, TimeUnit.SECONDS);

    assertThat(pickCounts(90)).containsOnlyKeys(address(2), address(3));
  }

  @Test
  void withoutAnAlgorithmNothingIsCountedOrEjected() {
    accept(config(new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300),
        100, Optional.empty(), Optional.empty())));
    push(update(locality("a", 0, endpoint(1), endpoint(2), endpoint(3))));
    readyAll(1, 2, 3);
    rpcs(300, address(1));
    helper.forward(10, TimeUnit.SECONDS);
    assertThat(pickCounts(90)).containsKeys(address(1), address(2), address(3));
  }

  private OutlierDetection failurePercentage(int minimumHosts) {
    return new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300), 50,
        Optional.empty(), Optional.of(new FailurePercentage(85, 100, minimumHosts, 20)));
  }

  private void accept(OutlierDetection od) {
    accept(config(od));
  }

  private EdsConfig config(OutlierDetection od) {
    return new EdsConfig(cluster, "eds", 1024, Duration.ofSeconds(10), Duration.ofMinutes(15),
        EndpointPolicy.ROUND_ROBIN, false, Optional.of(od));
  }

  private void accept(EdsConfig config) {
    helper.run(() -> assertThat(balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(config)
        .build()).isOk()).isTrue());
  }

  /** {@code n} RPCs through the picker, each stream closing OK except those to {@code sick}. */
  private void rpcs(int n, InetSocketAddress sick) {
    for (int i = 0; i < n; i++) {
      PickResult pick = helper.pick();
      SocketAddress to = pick.getSubchannel().getAllAddresses().get(0).getAddresses().get(0);
      ClientStreamTracer tracer = pick.getStreamTracerFactory()
          .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
      tracer.outboundHeaders();
      tracer.streamClosed(to.equals(sick) ? Status.UNAVAILABLE : Status.OK);
    }
  }

  private Map<SocketAddress, Integer> pickCounts(int n) {
    return helper.pickCounts(n);
  }

  private void readyAll(int... endpoints) {
    for (int n : endpoints) {
      helper.subchannel(address(n)).setState(ConnectivityState.READY);
    }
  }

  private void push(EndpointsUpdate update) {
    xds.activeWatch(ResourceTypes.ENDPOINTS, "eds").update(update);
  }

  private static EndpointsUpdate update(Locality... localities) {
    return new EndpointsUpdate("eds", List.of(localities), List.of(), 140);
  }

  private static Locality locality(String zone, int priority, Endpoint... endpoints) {
    return new Locality(zone(zone), priority, 1, List.of(endpoints));
  }
}
