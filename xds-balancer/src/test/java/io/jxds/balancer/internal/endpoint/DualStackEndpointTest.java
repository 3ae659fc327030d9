package io.jxds.balancer.internal.endpoint;

import static io.grpc.ConnectivityState.READY;
import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.EquivalentAddressGroup;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An endpoint with several addresses (gRFC A61, EDS {@code additional_addresses}) is one endpoint
 * to the endpoint leaf: one subchannel whose single address group lists its addresses in order
 * (gRPC connects to them in turn), one weight, one share; it is the same endpoint while its set of
 * addresses is the same, whatever their order.
 */
class DualStackEndpointTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final EndpointBalancer balancer = new EndpointBalancer(helper, "c[child0] zone-a", TestRandom.seeded(1));

  private void accept(Endpoint... endpoints) {
    helper.run(() -> balancer.acceptConfig(new EndpointGroup(List.of(endpoints))));
  }

  private static Endpoint dual(long weight, InetSocketAddress... addresses) {
    return new Endpoint(addresses[0], HealthStatus.HEALTHY, weight, "", "",
        List.of(addresses).subList(1, addresses.length));
  }

  @Test
  void dualStackEndpointIsOneSubchannelWithAllItsAddressesInOneGroupInOrder() {
    accept(dual(1, address(1), address(101), address(201)), endpoint(2));

    assertThat(helper.subchannels).hasSize(2);
    assertThat(helper.subchannels.get(0).getAllAddresses())
        .containsExactly(new EquivalentAddressGroup(List.of(address(1), address(101), address(201))));
    assertThat(helper.subchannels.get(1).getAllAddresses()).containsExactly(new EquivalentAddressGroup(address(2)));
  }

  @Test
  void dualStackEndpointTakesOneShareByItsWeight() {
    accept(dual(3, address(1), address(101)), endpoint(2, 1));
    helper.subchannels.forEach(s -> s.setState(READY));

    Map<SocketAddress, Integer> counts = helper.pickCounts(400);

    assertThat(counts).containsOnly(Map.entry(address(1), 300), Map.entry(address(2), 100));
  }

  @Test
  void reorderedAddressesKeepTheSubchannelAndGiveItTheNewOrder() {
    accept(dual(1, address(1), address(101)));
    FakeSubchannel subchannel = helper.subchannels.get(0);
    subchannel.setState(READY);

    accept(dual(2, address(101), address(1)));

    assertThat(helper.subchannels).containsExactly(subchannel);
    assertThat(subchannel.isShutdown()).isFalse();
    assertThat(subchannel.addressUpdates()).isEqualTo(1);
    assertThat(subchannel.getAllAddresses())
        .containsExactly(new EquivalentAddressGroup(List.of(address(101), address(1))));
    assertThat(helper.state()).isEqualTo(READY);

    accept(dual(3, address(101), address(1))); // same order: nothing to tell the subchannel
    assertThat(subchannel.addressUpdates()).isEqualTo(1);
  }

  @Test
  void anotherSetOfAddressesIsAnotherEndpoint() {
    // gRFC A61: endpoints are matched by their unordered set of addresses; one added or removed
    // makes a new endpoint (and a new connection).
    accept(dual(1, address(1), address(101)));
    FakeSubchannel before = helper.subchannels.get(0);

    accept(dual(1, address(1), address(102)));

    assertThat(before.isShutdown()).isTrue();
    assertThat(helper.liveSubchannels()).singleElement()
        .satisfies(s -> assertThat(s.getAllAddresses())
            .containsExactly(new EquivalentAddressGroup(List.of(address(1), address(102)))));

    accept(endpoint(1));
    assertThat(helper.liveSubchannels()).singleElement()
        .satisfies(s -> assertThat(s.getAllAddresses()).containsExactly(new EquivalentAddressGroup(address(1))));
  }
}
