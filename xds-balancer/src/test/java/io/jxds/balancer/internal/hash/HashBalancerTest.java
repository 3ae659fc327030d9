package io.jxds.balancer.internal.hash;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.locality;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.CallOptions;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.locality.LocalityConfig;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.manager.ChosenCluster;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ring hash / maglev over one priority: gRFC A42's lazy connections, states and pick walk. */
class HashBalancerTest {
  private static final EndpointPolicy RING = new EndpointPolicy(LbPolicy.RingHash.defaults(), "x-user-id");
  private static final EndpointPolicy MAGLEV = new EndpointPolicy(LbPolicy.Maglev.defaults(), "x-user-id");

  private final FakeLbHelper helper = new FakeLbHelper();
  private final HashBalancer balancer = new HashBalancer(helper, "c[child0]", TestRandom.seeded(9));

  private void accept(EndpointPolicy policy, LocalityConfig... localities) {
    helper.run(() -> balancer.acceptConfig(new LocalityGroup(List.of(localities), policy)));
  }

  private static Endpoint keyed(int n, String hashKey) {
    return new Endpoint(address(n), HealthStatus.HEALTHY, 1, "", hashKey);
  }

  private static Endpoint ep(int n) {
    return new Endpoint(address(n), HealthStatus.HEALTHY, 1, "");
  }

  private static PickSubchannelArgs withHash(long hash) {
    return args(CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, hash), new Metadata());
  }

  private static PickSubchannelArgs withHeader(String value) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-user-id", Metadata.ASCII_STRING_MARSHALLER), value);
    return args(CallOptions.DEFAULT, headers);
  }

  private static PickSubchannelArgs args(CallOptions options, Metadata headers) {
    return FakeLbHelper.args(options, headers);
  }

  private InetSocketAddress picked(PickSubchannelArgs args) {
    PickResult r = helper.picker().pickSubchannel(args);
    assertThat(r.getSubchannel()).as("a pick with a subchannel").isNotNull();
    return ((FakeSubchannel) r.getSubchannel()).address();
  }

  @Test
  void startsIdleWithoutConnectingAndConnectsOnlyThePickedEndpoint() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3)));
    assertThat(helper.state()).isEqualTo(IDLE);
    assertThat(helper.subchannels).hasSize(3).allSatisfy(s -> assertThat(s.connectionRequests()).isZero());

    PickResult first = helper.picker().pickSubchannel(withHash(12345));
    assertThat(first.getSubchannel()).isNull(); // queued while its endpoint connects
    helper.run(() -> {}); // the connect request hops onto the SynchronizationContext
    assertThat(helper.subchannels).filteredOn(s -> s.connectionRequests() > 0).hasSize(1);
    FakeSubchannel chosen = helper.subchannels.stream().filter(s -> s.connectionRequests() > 0).findFirst()
        .orElseThrow();
    assertThat(helper.state()).isEqualTo(CONNECTING);
    chosen.setState(READY);
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(picked(withHash(12345))).isEqualTo(chosen.address());
  }

  @Test
  void sameHeaderOrCallOptionAlwaysReachesSameEndpoint() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    helper.readyAll();
    Map<String, InetSocketAddress> byUser = new HashMap<>();
    for (int u = 0; u < 200; u++) {
      byUser.put("user-" + u, picked(withHeader("user-" + u)));
    }
    for (int round = 0; round < 3; round++) {
      for (int u = 0; u < 200; u++) {
        assertThat(picked(withHeader("user-" + u))).isEqualTo(byUser.get("user-" + u));
      }
    }
    assertThat(byUser.values()).as("users spread over all four endpoints").containsAll(
        List.of(address(1), address(2), address(3), address(4)));
    // The call option wins over the header.
    InetSocketAddress byOption = picked(withHash(77));
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-user-id", Metadata.ASCII_STRING_MARSHALLER), "someone-else");
    for (int i = 0; i < 50; i++) {
      assertThat(picked(args(CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, 77L), headers)))
          .isEqualTo(byOption);
    }
  }

  @Test
  void aRoutesRequestHashWinsOverTheApplicationsAndALoneClusterChoiceLeavesItTheirs() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    helper.readyAll();
    Map<Long, InetSocketAddress> byHash = new HashMap<>();
    for (long h = 0; h < 64; h++) {
      byHash.put(h * 0x9E3779B97F4A7C15L, picked(withHash(h * 0x9E3779B97F4A7C15L)));
    }
    long appHash = 0;
    long routeHash = byHash.keySet().stream().filter(h -> !byHash.get(h).equals(byHash.get(0L))).findFirst()
        .orElseThrow();
    CallOptions app = CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, appHash);

    for (int i = 0; i < 20; i++) {
      assertThat(picked(args(app.withOption(ChosenCluster.KEY, ChosenCluster.of("c").withRequestHash(routeHash)),
          new Metadata()))).as("the route's hash").isEqualTo(byHash.get(routeHash));
      assertThat(picked(args(app.withOption(ChosenCluster.KEY, ChosenCluster.of("c")), new Metadata())))
          .as("no route hash: the application's").isEqualTo(byHash.get(appHash));
    }
  }

  @Test
  void hashKeyKeepsAKeysEndpointWhenItsAddressChanges() {
    accept(MAGLEV, locality("a", 1, keyed(1, "pod-a"), keyed(2, "pod-b"), keyed(3, "pod-c")));
    helper.readyAll();
    Map<Long, InetSocketAddress> before = new HashMap<>();
    for (long h = 0; h < 300; h++) {
      before.put(h * 7919, picked(withHash(h * 7919)));
    }
    // pod-b moves from 10.0.0.2 to 10.0.0.9: same hash_key, new address.
    accept(MAGLEV, locality("a", 1, keyed(1, "pod-a"), keyed(9, "pod-b"), keyed(3, "pod-c")));
    helper.readyAll();
    for (long h = 0; h < 300; h++) {
      InetSocketAddress was = before.get(h * 7919);
      InetSocketAddress expected = was.equals(address(2)) ? address(9) : was;
      assertThat(picked(withHash(h * 7919))).isEqualTo(expected);
    }
  }

  @Test
  void weightsAreLocalityTimesEndpointNormalized() {
    // Locality a (weight 1): endpoints 1 and 2 of weight 1 and 3; locality b (weight 3): endpoint 3.
    // Shares: 1/4 × 1/4 = 6.25 %, 1/4 × 3/4 = 18.75 %, 3/4 = 75 %.
    accept(new EndpointPolicy(LbPolicy.Maglev.defaults(), ""),
        locality("a", 1, new Endpoint(address(1), HealthStatus.HEALTHY, 1, ""),
            new Endpoint(address(2), HealthStatus.HEALTHY, 3, "")),
        locality("b", 3, ep(3)));
    helper.readyAll();
    Map<InetSocketAddress, Integer> counts = new HashMap<>();
    var random = TestRandom.seeded(11);
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      counts.merge(picked(withHash(random.nextLong())), 1, Integer::sum);
    }
    // Maglev with 3 endpoints in 65 537 slots: within 1 point of the weight share.
    assertThat(100.0 * counts.get(address(1)) / n).isCloseTo(6.25, within(1.0));
    assertThat(100.0 * counts.get(address(2)) / n).isCloseTo(18.75, within(1.0));
    assertThat(100.0 * counts.get(address(3)) / n).isCloseTo(75, within(1.0));
  }

  @Test
  void failedEndpointFallsThroughToTheNextReadyOne() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3)));
    helper.readyAll();
    InetSocketAddress home = picked(withHash(424242));
    helper.subchannel(home).setState(TRANSIENT_FAILURE);
    assertThat(helper.state()).isEqualTo(READY);
    InetSocketAddress fallback = picked(withHash(424242));
    assertThat(fallback).isNotEqualTo(home);
    assertThat(picked(withHash(424242))).as("the fallback is stable").isEqualTo(fallback);
    helper.subchannel(home).setState(READY);
    assertThat(picked(withHash(424242))).as("back home once READY").isEqualTo(home);
  }

  @Test
  void twoFailuresMakeTransientFailureAndAnIdleEndpointIsAskedToConnect() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3)));
    helper.subchannel(address(1)).setState(CONNECTING);
    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    assertThat(helper.state()).as("one failure among several").isEqualTo(CONNECTING);
    helper.subchannel(address(2)).setState(CONNECTING);
    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    // gRFC A42: with nothing connecting, the balancer connects an IDLE endpoint by itself.
    assertThat(helper.subchannel(address(3)).connectionRequests()).isEqualTo(1);
    helper.subchannel(address(3)).setState(READY);
    assertThat(helper.state()).isEqualTo(READY);
  }

  @Test
  void readyEndpointThatGoesIdleIsNotReconnectedUntilPicked() {
    accept(RING, locality("a", 1, ep(1)));
    helper.subchannel(address(1)).setState(READY);
    int requests = helper.subchannel(address(1)).connectionRequests();
    helper.subchannel(address(1)).setState(IDLE);
    assertThat(helper.state()).isEqualTo(IDLE);
    assertThat(helper.subchannel(address(1)).connectionRequests()).isEqualTo(requests);
    helper.picker().pickSubchannel(withHash(1));
    helper.run(() -> {});
    assertThat(helper.subchannel(address(1)).connectionRequests()).isEqualTo(requests + 1);
  }

  @Test
  void randomHashTakesAReadyEndpointAndConnectsOneIdleEndpointAtATime() {
    // gRFC A76: a random hash is not sticky; the pick walks to the first READY endpoint, asking
    // the first IDLE one it meets to connect, unless one is already connecting.
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    helper.subchannel(address(2)).setState(READY);
    for (int i = 0; i < 100; i++) {
      assertThat(picked(FakeLbHelper.ARGS)).isEqualTo(address(2));
    }
    List<FakeSubchannel> asked = helper.subchannels.stream().filter(s -> s.connectionRequests() > 0).toList();
    assertThat(asked).as("endpoints asked to connect").hasSize(1);
    assertThat(asked.get(0).connectionRequests()).isEqualTo(1);

    asked.get(0).setState(READY); // connected: the next random pick that meets an IDLE one connects it
    for (int i = 0; i < 100; i++) {
      assertThat(picked(FakeLbHelper.ARGS)).isIn(address(2), asked.get(0).address());
    }
    assertThat(helper.subchannels).filteredOn(s -> s.connectionRequests() > 0).hasSize(2);
  }

  @Test
  void randomHashAsksNoEndpointToConnectWhileOneIsConnecting() {
    // Four endpoints, one CONNECTING, three IDLE, the hash header absent from every request.
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    helper.subchannel(address(1)).setState(CONNECTING);
    for (int i = 0; i < 50; i++) {
      PickResult result = helper.picker().pickSubchannel(FakeLbHelper.ARGS);
      assertThat(result.getSubchannel()).as("pick %s is queued", i).isNull();
      assertThat(result.getStatus().isOk()).isTrue();
    }
    helper.run(() -> {});
    assertThat(helper.subchannels).as("A76: no connection attempt while an endpoint is connecting")
        .allSatisfy(s -> assertThat(s.connectionRequests()).isZero());
  }

  @Test
  void randomHashWithNothingConnectingAsksExactlyOneEndpointToConnect() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    PickResult result = helper.picker().pickSubchannel(FakeLbHelper.ARGS);
    assertThat(result.getSubchannel()).isNull();
    helper.run(() -> {});
    assertThat(helper.subchannels).filteredOn(s -> s.connectionRequests() > 0).hasSize(1);
  }

  @Test
  void hashedPickWaitsForTheFirstEndpointNotFailedEvenWithAReadyOneFurtherOn() {
    // gRFC A61's walk: failed endpoints are skipped; the first one that is not failed decides.
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    List<InetSocketAddress> order = walkOrder(424242, 4);
    helper.subchannel(order.get(0)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(2)).setState(IDLE);
    helper.subchannel(order.get(2)).setState(CONNECTING);

    PickResult result = helper.picker().pickSubchannel(withHash(424242));

    assertThat(result.getSubchannel()).as("queued for the connecting endpoint, not sent to the READY one after it")
        .isNull();
    assertThat(result.getStatus().isOk()).isTrue();
  }

  @Test
  void hashedPickAsksTheFirstIdleEndpointAfterFailedOnesToConnectAndWaitsForIt() {
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3), ep(4)));
    List<InetSocketAddress> order = walkOrder(424242, 4);
    helper.subchannel(order.get(0)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(2)).setState(IDLE);
    int requests = helper.subchannel(order.get(2)).connectionRequests();

    PickResult result = helper.picker().pickSubchannel(withHash(424242));
    helper.run(() -> {});

    assertThat(result.getSubchannel()).as("queued for the idle endpoint").isNull();
    assertThat(helper.subchannel(order.get(2)).connectionRequests()).isEqualTo(requests + 1);
  }

  @Test
  void hashedPickWithTwoFailedEndpointsAndOneConnectingQueuesRatherThanFails() {
    // gRFC A61 replaced A42's walk (which failed the pick once the first two endpoints had failed
    // and none was READY): the pick waits for the first endpoint that is not failed.
    accept(RING, locality("a", 1, ep(1), ep(2), ep(3)));
    List<InetSocketAddress> order = walkOrder(424242, 3);
    helper.subchannel(order.get(0)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(1)).setState(TRANSIENT_FAILURE);
    helper.subchannel(order.get(2)).setState(IDLE);
    helper.subchannel(order.get(2)).setState(CONNECTING);
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE); // two failed (A42's aggregation)

    PickResult result = helper.picker().pickSubchannel(withHash(424242));

    assertThat(result.getSubchannel()).isNull();
    assertThat(result.getStatus().isOk()).as("queued, not failed: %s", result.getStatus()).isTrue();
  }

  @Test
  void hashedPickFailsOnceEveryEndpointHasFailed() {
    accept(RING, locality("a", 1, ep(1), ep(2)));
    helper.subchannel(address(1)).fail(Status.UNAVAILABLE.withDescription("connection refused"));
    helper.subchannel(address(2)).fail(Status.UNAVAILABLE.withDescription("connection refused"));

    PickResult result = helper.picker().pickSubchannel(withHash(424242));

    assertThat(result.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(result.getStatus().getDescription()).contains("connection refused");
  }

  /**
   * The endpoints a pick with {@code hash} meets, in ring order: found by failing each endpoint
   * the pick lands on in turn, then making them all READY again.
   */
  private List<InetSocketAddress> walkOrder(long hash, int endpoints) {
    helper.readyAll();
    List<InetSocketAddress> order = new ArrayList<>();
    for (int i = 0; i < endpoints; i++) {
      InetSocketAddress next = picked(withHash(hash));
      order.add(next);
      helper.subchannel(next).setState(TRANSIENT_FAILURE);
    }
    for (InetSocketAddress address : order) {
      helper.subchannel(address).setState(READY);
    }
    assertThat(order).doesNotHaveDuplicates();
    return order;
  }

  @Test
  void endpointMovedToAnotherLocalityKeepsItsSubchannelAndItsLocalityMovesWithIt() {
    accept(RING, locality("a", 1, ep(1), ep(2)), locality("b", 1, ep(3)));
    FakeSubchannel one = helper.subchannel(address(1));
    assertThat(one.getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(zone("a"));

    accept(RING, locality("a", 1, ep(2)), locality("b", 1, ep(1), ep(3)));

    assertThat(helper.subchannel(address(1))).isSameAs(one);
    assertThat(one.getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(zone("b"));
    assertThat(helper.subchannel(address(2)).getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(zone("a"));
  }

  @Test
  void removedEndpointIsShutDownAndKeptOnesKeepTheirSubchannels() {
    accept(RING, locality("a", 1, ep(1), ep(2)));
    FakeSubchannel one = helper.subchannel(address(1));
    accept(RING, locality("a", 1, ep(1), ep(3)));
    assertThat(helper.subchannel(address(1))).isSameAs(one);
    assertThat(helper.subchannels.stream().filter(s -> s.address().equals(address(2))).findFirst().orElseThrow()
        .isShutdown()).isTrue();
  }
}
