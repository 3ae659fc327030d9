package io.jxds.balancer.internal.cds;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LogicalDns;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.dns.ScriptedDns;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster changing its kind (EDS, LOGICAL_DNS) under traffic hands over as gRPC's graceful
 * switch does: the old child serves until the new one is READY.
 */
class ClusterKindSwitchTest {
  private static final InetSocketAddress DNS_ADDRESS = new InetSocketAddress("127.0.0.1", 8080);

  private final FakeLbHelper fake = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final ScriptedDns dns = new ScriptedDns();
  private CdsBalancer balancer;

  @BeforeEach
  void start() {
    Helper helper = dns.helperOver(fake);
    balancer = new CdsBalancer(helper, xds, "payments", TestRandom.seeded(1), TestRandom.seeded(2));
    fake.run(() -> balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(ClusterPolicyConfig.forCluster("payments"))
        .build()));
  }

  @Test
  void edsToLogicalDnsKeepsTheEdsEndpointsUntilTheDnsOneIsReady() {
    FakeSubchannel eds = servingEds();

    cluster(logicalDns());

    assertThat(picked()).isEqualTo(address(1)); // resolving: the EDS child serves on
    resolveDns();
    assertThat(picked()).isEqualTo(address(1)); // connecting: still
    fake.subchannel(DNS_ADDRESS).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(DNS_ADDRESS);
    assertThat(eds.isShutdown()).isTrue();
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
  }

  @Test
  void logicalDnsToEdsKeepsTheDnsEndpointUntilTheEdsOnesAreReady() {
    cluster(logicalDns());
    resolveDns();
    FakeSubchannel dnsSubchannel = fake.subchannel(DNS_ADDRESS);
    dnsSubchannel.setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(DNS_ADDRESS);

    cluster(ClusterUpdate.of("payments", "payments-eds"));
    assertThat(picked()).isEqualTo(DNS_ADDRESS);
    endpoints();
    assertThat(picked()).isEqualTo(DNS_ADDRESS);
    fake.subchannel(address(1)).setState(ConnectivityState.READY);

    assertThat(picked()).isEqualTo(address(1));
    assertThat(dnsSubchannel.isShutdown()).isTrue();
    assertThat(dns.resolver.shutdown).isTrue();
  }

  @Test
  void changeWithinAKindIsAppliedInPlace() {
    FakeSubchannel eds = servingEds();

    cluster(new ClusterUpdate("payments", "payments-eds", false, 7, LbPolicy.ROUND_ROBIN, Optional.empty()));

    assertThat(picked()).isEqualTo(address(1));
    assertThat(eds.isShutdown()).isFalse();
  }

  private FakeSubchannel servingEds() {
    cluster(ClusterUpdate.of("payments", "payments-eds"));
    endpoints();
    FakeSubchannel eds = fake.subchannel(address(1));
    eds.setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(1));
    return eds;
  }

  private static ClusterUpdate logicalDns() {
    return new ClusterUpdate("payments", "payments", false, 1024, LbPolicy.ROUND_ROBIN, Optional.empty(),
        Optional.empty(), Optional.of(new LogicalDns("backend.example", 8080)));
  }

  private SocketAddress picked() {
    PickResult pick = fake.pick();
    assertThat(pick.getSubchannel()).as("pick %s", pick).isNotNull();
    return pick.getSubchannel().getAddresses().getAddresses().get(0);
  }

  private void cluster(ClusterUpdate update) {
    fake.run(() -> xds.setResource(ResourceTypes.CLUSTER, "payments", update));
  }

  private void endpoints() {
    fake.run(() -> xds.setResource(ResourceTypes.ENDPOINTS, "payments-eds", new EndpointsUpdate(
        "payments-eds", List.of(new Locality(zone("a"), 0, 1, List.of(endpoint(1)))), List.of(), 140)));
  }

  private void resolveDns() {
    fake.run(() -> dns.resolver.resolve(List.of(new EquivalentAddressGroup(DNS_ADDRESS))));
  }
}
