package io.jxds.balancer.internal;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.TestRandom;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A channel that leaves IDLE ({@code getState(true)}) calls the root's {@code requestConnection}:
 * it reaches the serving priority's balancer through every layer.
 */
class RequestConnectionTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final XdsClusterLoadBalancer balancer = new XdsClusterLoadBalancer(
      helper, () -> XdsClientLease.borrowed(xds), TestRandom.seeded(1), TestRandom.seeded(2));

  @AfterEach
  void shutDown() {
    helper.run(balancer::shutdown);
  }

  @Test
  void requestConnectionConnectsOneEndpointOfAnIdleRingHashCluster() {
    xds.setResource(ResourceTypes.CLUSTER, "payments", new ClusterUpdate(
        "payments", "payments-eds", false, 1024, LbPolicy.RingHash.defaults(), Optional.empty()));
    xds.setResource(ResourceTypes.ENDPOINTS, "payments-eds", new EndpointsUpdate("payments-eds",
        List.of(new Locality(zone("a"), 0, 1, List.of(endpoint(1), endpoint(2)))), List.of(), 140, List.of()));
    helper.run(() -> balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of()).setLoadBalancingPolicyConfig(ClusterPolicyConfig.forCluster("payments")).build()));
    assertThat(helper.state()).isEqualTo(ConnectivityState.IDLE);
    assertThat(helper.subchannels).hasSize(2).allSatisfy(s -> assertThat(s.connectionRequests()).isZero());

    helper.run(balancer::requestConnection);

    assertThat(helper.subchannels).extracting(FakeSubchannel::connectionRequests).containsExactlyInAnyOrder(0, 1);
  }
}
