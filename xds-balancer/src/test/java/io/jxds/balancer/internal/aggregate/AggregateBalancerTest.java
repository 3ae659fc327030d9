package io.jxds.balancer.internal.aggregate;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.AggregateCluster;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.Locality;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.cds.CdsBalancer;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An aggregate cluster under the CDS layer (gRFC A37, A75), with a fake client and fake
 * subchannels: the leaves in order through the priority layer, failover on EDS health, leaves
 * changing under traffic, loops, and graceful switches of the cluster's kind.
 */
class AggregateBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final CdsBalancer balancer =
      new CdsBalancer(helper, xds, "global", TestRandom.seeded(1), TestRandom.seeded(2));

  @Test
  void threeLeavesAreWatchedAtOnceAndOnlyTheFirstStarts() {
    accept();
    aggregate("global", "a", "b", "c");

    // One pass watched the whole first level: one CDS round trip for it.
    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(4);
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
    assertThat(helper.state()).isEqualTo(ConnectivityState.CONNECTING);

    eds("a");
    eds("b");
    eds("c");

    assertThat(xds.activeWatch(ResourceTypes.ENDPOINTS, "a")).isNotNull();
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isEqualTo(1);
    endpoints("a", 1);
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(1));
  }

  /** grpc-java keeps a READY leaf whose CLA marks every endpoint unhealthy: no failover there. */
  @Test
  void leafWhoseEndpointsAreAllUnhealthyFailsOverAndTrafficComesBack() {
    serving("a", "b");
    eds("b");
    endpoints("b", 2);

    endpoints("a", HealthStatus.UNHEALTHY, 1);

    assertThat(xds.activeWatch(ResourceTypes.ENDPOINTS, "b")).isNotNull();
    helper.subchannel(address(2)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(2));

    endpoints("a", 1);
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(1));
  }

  @Test
  void deadEndpointsFailOverToo() {
    serving("a", "b");
    eds("b");
    endpoints("b", 2);

    helper.subchannel(address(1)).setState(ConnectivityState.TRANSIENT_FAILURE);
    helper.subchannel(address(2)).setState(ConnectivityState.READY);

    assertThat(picked()).isEqualTo(address(2));
  }

  @Test
  void eachLeafKeepsItsOwnCircuitBreaker() {
    serving("a", "b");
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, "a", new ClusterUpdate("a", "a", false, 0,
        io.jxds.api.model.LbPolicy.ROUND_ROBIN, java.util.Optional.empty())));

    PickResult pick = helper.pick();
    assertThat(pick.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(pick.getStatus().getDescription()).isEqualTo("cluster a: max concurrent requests 0 exceeded");
  }

  @Test
  void eachLeafKeepsItsOwnTlsAndALeafTheChannelCannotServeFailsOver() {
    accept();
    aggregate("global", "tls", "b");
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, "tls", new ClusterUpdate("tls", "tls", false, 1024,
        io.jxds.api.model.LbPolicy.ROUND_ROBIN,
        java.util.Optional.of(io.jxds.api.model.UpstreamTlsSettings.mutual("default", List.of())))));
    eds("b");
    endpoints("b", 2);
    helper.subchannel(address(2)).setState(ConnectivityState.READY);

    // The channel's credentials are not XdsClusterCredentials: "tls" fails saying why, b serves.
    assertThat(picked()).isEqualTo(address(2));
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isEqualTo(1);
  }

  @Test
  void deletedLeafFailsOverWithoutAFailedPick() {
    serving("a", "b");
    eds("b");

    helper.run(() -> xds.removeResource(ResourceTypes.CLUSTER, "a"));

    assertThat(helper.pick().getStatus().isOk()).isTrue(); // queued while b connects, not failed
    endpoints("b", 2);
    helper.subchannel(address(2)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(2));
  }

  @Test
  void leafTurnedIntoAnAggregateServesUntilItsClustersResolve() {
    serving("a", "b");

    aggregate("a", "a1", "a2");

    assertThat(picked()).isEqualTo(address(1)); // a1 and a2 not known yet: a serves on
    eds("a1");
    eds("a2");
    endpoints("a1", 11);
    assertThat(helper.pick().getStatus().isOk()).isTrue();
    helper.subchannel(address(11)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(11));
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isEqualTo(1); // a1's; a's closed
  }

  @Test
  void addedAndRemovedLeavesKeepTheServingOne() {
    serving("a", "b");
    FakeLbHelper.FakeSubchannel a = helper.subchannel(address(1));

    aggregate("global", "z", "a");
    eds("z");
    // gRFC A56: z, now first, is tried within its failover timer; RPCs wait for it, none fails.
    assertThat(helper.pick().getStatus().isOk()).isTrue();
    aggregate("global", "a");

    assertThat(picked()).isEqualTo(address(1));
    assertThat(a.isShutdown()).isFalse();
    assertThat(helper.subchannel(address(1))).isSameAs(a);
  }

  @Test
  void loopFailsTheChannelNamingTheClusters() {
    accept();
    aggregate("global", "a", "mid");
    eds("a");
    aggregate("mid", "inner");
    aggregate("inner", "mid");

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription())
        .isEqualTo("cluster global: aggregate cluster loop: global -> mid -> inner -> mid");

    aggregate("inner", "a");
    endpoints("a", 1);
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(1));
  }

  @Test
  void edsClusterTurnedIntoAnAggregateServesUntilTheAggregateIsReady() {
    accept();
    eds("global");
    endpoints("global", 1);
    FakeLbHelper.FakeSubchannel old = helper.subchannel(address(1));
    old.setState(ConnectivityState.READY);

    aggregate("global", "a");
    eds("a");
    endpoints("a", 2);

    assertThat(picked()).isEqualTo(address(1)); // the old child serves while a connects
    helper.subchannel(address(2)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(2));
    assertThat(old.isShutdown()).isTrue();
  }

  @Test
  void aggregateTurnedIntoAnEdsClusterServesUntilTheEdsClusterIsReady() {
    serving("a");

    eds("global");
    endpoints("global", 3);

    assertThat(picked()).isEqualTo(address(1));
    helper.subchannel(address(3)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(3));
    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(1); // a is no longer watched
  }

  @Test
  void shutdownCancelsEveryWatch() {
    serving("a", "b");

    helper.run(balancer::shutdown);

    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isZero();
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
  }

  /** global -> leaves, all EDS clusters; the first, with endpoint 1, READY. */
  private void serving(String... leaves) {
    accept();
    aggregate("global", leaves);
    for (String leaf : leaves) {
      eds(leaf);
    }
    endpoints(leaves[0], 1);
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(picked()).isEqualTo(address(1));
  }

  private SocketAddress picked() {
    PickResult pick = helper.pick();
    assertThat(pick.getStatus().isOk()).as("pick %s", pick).isTrue();
    assertThat(pick.getSubchannel()).as("pick %s", pick).isNotNull();
    return pick.getSubchannel().getAddresses().getAddresses().get(0);
  }

  private void accept() {
    helper.run(() -> balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(ClusterPolicyConfig.forCluster("global"))
        .build()));
  }

  private void aggregate(String name, String... clusters) {
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, name,
        ClusterUpdate.aggregate(name, new AggregateCluster(List.of(clusters)))));
  }

  private void eds(String name) {
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, name, ClusterUpdate.of(name, name)));
  }

  private void endpoints(String name, int... hosts) {
    endpoints(name, HealthStatus.HEALTHY, hosts);
  }

  private void endpoints(String name, HealthStatus health, int... hosts) {
    List<Endpoint> list = new ArrayList<>();
    for (int host : hosts) {
      list.add(endpoint(host, health));
    }
    helper.run(() -> xds.setResource(ResourceTypes.ENDPOINTS, name, new EndpointsUpdate(
        name, List.of(new Locality(zone("a"), 0, 1, list)), List.of(), 140)));
  }
}
