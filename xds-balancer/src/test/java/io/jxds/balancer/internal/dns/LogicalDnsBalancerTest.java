package io.jxds.balancer.internal.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.Helper;
import io.grpc.Status;
import io.jxds.api.model.LocalityId;
import io.jxds.api.model.LogicalDns;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LOGICAL_DNS endpoint (gRFC A37) against a scripted {@code dns} resolver registered in the
 * channel's registry: one subchannel with every address, re-resolution on connection failure, and
 * the errors RPCs see.
 */
class LogicalDnsBalancerTest {
  private static final InetSocketAddress V6 = new InetSocketAddress("::1", 8080);
  private static final InetSocketAddress V4 = new InetSocketAddress("127.0.0.1", 8080);

  private final FakeLbHelper fake = new FakeLbHelper();
  private final ScriptedDns dnsProvider = new ScriptedDns();
  private LogicalDnsBalancer balancer;

  @BeforeEach
  void start() {
    Helper helper = dnsProvider.helperOver(fake);
    balancer = new LogicalDnsBalancer(helper, "legacy", new LogicalDns("backend.example", 8080));
    fake.run(balancer::start);
  }

  @Test
  void resolvesThroughTheRegistrysDnsResolverAsDnsUri() {
    assertThat(dnsProvider.targets).containsExactly(URI.create("dns:///backend.example:8080"));
    assertThat(fake.state()).isEqualTo(ConnectivityState.CONNECTING);
  }

  @Test
  void everyAddressIsOneEndpointInOrder() {
    resolve(V6, V4);

    assertThat(fake.subchannels).hasSize(1);
    FakeSubchannel subchannel = fake.subchannels.get(0);
    assertThat(subchannel.getAllAddresses()).containsExactly(new EquivalentAddressGroup(List.of(V6, V4)));
    assertThat(subchannel.connectionRequests()).isEqualTo(1);
    assertThat(subchannel.getAttributes().get(EndpointLocality.KEY).get()).isEqualTo(new LocalityId("", "", ""));

    subchannel.setState(ConnectivityState.READY);
    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
    assertThat(fake.pick().getSubchannel()).isSameAs(subchannel);
  }

  @Test
  void connectionFailureReResolvesAndFailsNamingClusterAndName() {
    resolve(V4);
    FakeSubchannel subchannel = fake.subchannels.get(0);
    int before = dnsProvider.refreshes;

    subchannel.setState(ConnectivityState.TRANSIENT_FAILURE);

    assertThat(dnsProvider.refreshes).isEqualTo(before + 1);
    assertThat(fake.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(fake.pick().getStatus().getDescription())
        .contains("cluster legacy", "backend.example:8080", "connection refused");
    // Sticky until READY (gRFC A62).
    subchannel.setState(ConnectivityState.CONNECTING);
    assertThat(fake.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
  }

  @Test
  void lostConnectionReResolvesAndReconnects() {
    resolve(V4);
    FakeSubchannel subchannel = fake.subchannels.get(0);
    subchannel.setState(ConnectivityState.READY);
    int before = dnsProvider.refreshes;

    subchannel.setState(ConnectivityState.IDLE);

    assertThat(dnsProvider.refreshes).isEqualTo(before + 1);
    assertThat(subchannel.connectionRequests()).isEqualTo(2);
    assertThat(fake.state()).isEqualTo(ConnectivityState.CONNECTING);
  }

  @Test
  void reResolutionToOtherAddressesIsUsed() {
    resolve(V4);
    FakeSubchannel subchannel = fake.subchannels.get(0);
    subchannel.setState(ConnectivityState.READY);
    subchannel.setState(ConnectivityState.IDLE); // the connection is lost: the name is resolved again

    resolve(V6, V4);

    assertThat(fake.subchannels).containsExactly(subchannel);
    assertThat(subchannel.addressUpdates()).isEqualTo(1);
    assertThat(subchannel.getAllAddresses()).containsExactly(new EquivalentAddressGroup(List.of(V6, V4)));
    subchannel.setState(ConnectivityState.READY);
    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
    assertThat(fake.pick().getSubchannel()).isSameAs(subchannel);

    resolve(V6, V4); // the same answer again changes nothing
    assertThat(subchannel.addressUpdates()).isEqualTo(1);
  }

  @Test
  void unresolvableNameFailsRpcsUnavailableNamingClusterAndNameAndIsRetried() {
    fake.run(() -> dnsProvider.resolver.fail(
        Status.UNAVAILABLE.withDescription("Unable to resolve host backend.example")));

    assertThat(fake.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = fake.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription())
        .isEqualTo("cluster legacy: LOGICAL_DNS name backend.example:8080 does not resolve: "
            + "UNAVAILABLE: Unable to resolve host backend.example");
    int before = dnsProvider.refreshes;

    fake.forward(1, TimeUnit.SECONDS);
    assertThat(dnsProvider.refreshes).isEqualTo(before + 1);

    resolve(V4);
    assertThat(fake.subchannels).hasSize(1);
  }

  @Test
  void errorAfterSuccessKeepsTheEndpoint() {
    resolve(V4);
    fake.subchannels.get(0).setState(ConnectivityState.READY);

    fake.run(() -> dnsProvider.resolver.fail(Status.UNAVAILABLE.withDescription("DNS server down")));

    assertThat(fake.state()).isEqualTo(ConnectivityState.READY);
    assertThat(fake.subchannels.get(0).isShutdown()).isFalse();
  }

  @Test
  void shutdownClosesResolverAndSubchannel() {
    resolve(V4);

    fake.run(balancer::shutdown);

    assertThat(dnsProvider.resolver.shutdown).isTrue();
    assertThat(fake.subchannels.get(0).isShutdown()).isTrue();
  }

  private void resolve(SocketAddress... addresses) {
    List<EquivalentAddressGroup> groups = new ArrayList<>();
    for (SocketAddress address : addresses) {
      groups.add(new EquivalentAddressGroup(address)); // gRPC's DNS resolver: one group per address
    }
    fake.run(() -> dnsProvider.resolver.resolve(groups));
  }
}
