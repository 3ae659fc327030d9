package io.jxds.balancer.internal.locality;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import io.jxds.api.model.HealthStatus;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalityBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final LocalityBalancer balancer =
      new LocalityBalancer(helper, "c[child1]", TestRandom.seeded(42));

  private void accept(LocalityConfig... localities) {
    helper.run(() -> balancer.acceptConfig(LocalityGroup.of(localities)));
  }

  @Test
  void oneChildPerLocalityAndUnchangedLocalitiesSurviveUpdates() {
    accept(locality("a", 1, endpoint(1)), locality("b", 1, endpoint(2)));
    FakeSubchannel a = helper.subchannel(address(1));
    FakeSubchannel b = helper.subchannel(address(2));

    accept(locality("a", 5, endpoint(1)), locality("c", 1, endpoint(3)));

    assertThat(helper.subchannel(address(1))).isSameAs(a);
    assertThat(a.isShutdown()).isFalse();
    assertThat(a.connectionRequests()).isEqualTo(1);
    assertThat(b.isShutdown()).isTrue();
    assertThat(helper.subchannel(address(3))).isNotNull();
  }

  @Test
  void endpointMovedToAnotherLocalityGetsThatLocalitysSubchannelTaggedWithIt() {
    accept(locality("a", 1, endpoint(1), endpoint(2)), locality("b", 1, endpoint(3)));
    FakeSubchannel inA = helper.subchannel(address(1));
    assertThat(inA.getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(zone("a"));

    accept(locality("a", 1, endpoint(2)), locality("b", 1, endpoint(1), endpoint(3)));

    assertThat(inA.isShutdown()).isTrue();
    FakeSubchannel inB = helper.subchannel(address(1));
    assertThat(inB).isNotSameAs(inA);
    assertThat(inB.getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(zone("b"));
  }

  @Test
  void acceptsEmptyAddressListWithConfig() {
    Status[] status = new Status[1];
    helper.run(() -> status[0] = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(LocalityGroup.of(locality("a", 1, endpoint(1))))
        .build()));
    assertThat(status[0].isOk()).isTrue();
  }

  @Test
  void aggregateIsReadyIfAnyChildIsReadyElseConnectingElseFailure() {
    accept(locality("a", 1, endpoint(1)), locality("b", 1, endpoint(2)));
    assertThat(helper.state()).isEqualTo(CONNECTING);

    helper.subchannel(address(1)).setState(TRANSIENT_FAILURE);
    assertThat(helper.state()).isEqualTo(CONNECTING);

    helper.subchannel(address(2)).setState(READY);
    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(10)).containsOnlyKeys(address(2));

    helper.subchannel(address(2)).fail(Status.UNAVAILABLE.withDescription("reset by peer"));
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    // The picker of the locality that failed last, naming it and its error.
    assertThat(helper.pick().getStatus().getDescription())
        .contains("c[child1]", "zone=\"b\"", "reset by peer");
  }

  @Test
  void localityWithoutUsableEndpointsTakesNoTraffic() {
    accept(locality("a", 1, endpoint(1)), locality("b", 100, endpoint(2, HealthStatus.UNHEALTHY)));
    helper.subchannel(address(1)).setState(READY);

    assertThat(helper.state()).isEqualTo(READY);
    assertThat(helper.pickCounts(100)).containsOnlyKeys(address(1));
  }

  @Test
  void noLocalityIsTransientFailure() {
    accept();
    assertThat(helper.state()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(((FailingPicker) helper.picker()).status().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void childUpdatesDuringAConfigAreFoldedIntoOnePush() {
    accept(locality("a", 1, endpoint(1, HealthStatus.UNHEALTHY)),
        locality("b", 1, endpoint(2, HealthStatus.UNHEALTHY)));
    // Both leaves report TRANSIENT_FAILURE while the config is applied: one push, not three.
    assertThat(helper.updates).hasSize(1);
  }

  @Test
  void localityAndEndpointSharesFollowWeightsOver100kPicks() {
    // Locality weights 1:2:7, endpoint weights inside each; expected share of an endpoint is
    // (locality weight share) x (endpoint weight share), seed 004's effective weight.
    accept(
        locality("a", 1, endpoint(1, 1), endpoint(2, 3)),
        locality("b", 2, endpoint(3, 1), endpoint(4, 1)),
        locality("c", 7, endpoint(5, 5), endpoint(6, 2), endpoint(7, 3)));
    helper.subchannels.forEach(s -> s.setState(READY));

    Map<SocketAddress, Integer> counts = helper.pickCounts(100_000);

    double[] expected = {
        0.1 * 0.25, 0.1 * 0.75, 0.2 * 0.5, 0.2 * 0.5, 0.7 * 0.5, 0.7 * 0.2, 0.7 * 0.3};
    for (int i = 0; i < expected.length; i++) {
      assertThat(counts.get(address(i + 1)) / 1000.0)
          .as("endpoint %d", i + 1).isCloseTo(expected[i] * 100, within(1.0));
    }
    assertThat((counts.get(address(1)) + counts.get(address(2))) / 1000.0).isCloseTo(10, within(1.0));
    assertThat((counts.get(address(3)) + counts.get(address(4))) / 1000.0).isCloseTo(20, within(1.0));
  }

  @Test
  void sharesAreRenormalisedOverReadyLocalities() {
    accept(locality("a", 1, endpoint(1)), locality("b", 3, endpoint(2)), locality("c", 6, endpoint(3)));
    helper.subchannel(address(1)).setState(READY);
    helper.subchannel(address(2)).setState(READY);

    Map<SocketAddress, Integer> counts = helper.pickCounts(100_000);

    assertThat(counts.get(address(1)) / 1000.0).isCloseTo(25, within(1.0));
    assertThat(counts.get(address(2)) / 1000.0).isCloseTo(75, within(1.0));
  }

  @Test
  void localitySequenceIsSmooth() {
    accept(locality("a", 3, endpoint(1)), locality("b", 1, endpoint(2)));
    helper.subchannels.forEach(s -> s.setState(READY));
    SubchannelPicker picker = helper.picker();
    int run = 0;
    for (int i = 0; i < 1000; i++) {
      SocketAddress a = ((FakeSubchannel) picker.pickSubchannel(FakeLbHelper.ARGS).getSubchannel()).address();
      run = a.equals(address(1)) ? run + 1 : 0;
      assertThat(run).isLessThanOrEqualTo(3); // share 3/4: never 4 in a row
    }
  }

  @Test
  void readyPickerIsReusedWhenNothingReadyChanged() {
    accept(locality("a", 1, endpoint(1)), locality("b", 1, endpoint(2)));
    helper.subchannel(address(1)).setState(READY);
    int updates = helper.updates.size();

    helper.subchannel(address(2)).setState(TRANSIENT_FAILURE);

    assertThat(helper.updates).hasSize(updates);
  }

  @Test
  void shutdownClosesEveryLocality() {
    accept(locality("a", 1, endpoint(1)), locality("b", 1, endpoint(2)));
    helper.run(balancer::shutdown);
    assertThat(helper.subchannels).allMatch(FakeSubchannel::isShutdown);
  }
}
