package io.jxds.balancer.internal.cds;

import static io.jxds.balancer.testing.Endpoints.address;
import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.Locality;
import io.jxds.api.model.UpstreamTlsSettings;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CdsBalancerTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private final CdsBalancer balancer =
      new CdsBalancer(helper, xds, "payments", TestRandom.seeded(1), TestRandom.seeded(2));

  @Test
  void watchesTheClusterAndWaitsForIt() {
    accept();

    assertThat(xds.activeWatch(ResourceTypes.CLUSTER, "payments")).isNotNull();
    assertThat(helper.state()).isEqualTo(ConnectivityState.CONNECTING);
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
  }

  @Test
  void firstClusterCreatesTheEdsLayerOnItsServiceName() {
    accept();

    cluster(ClusterUpdate.of("payments", "payments-eds"));

    assertThat(xds.activeWatch(ResourceTypes.ENDPOINTS, "payments-eds")).isNotNull();
  }

  @Test
  void newServiceNameRewatchesEndpoints() {
    accept();
    cluster(ClusterUpdate.of("payments", "eds-1"));

    cluster(ClusterUpdate.of("payments", "eds-2"));

    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isEqualTo(1);
    assertThat(xds.activeWatch(ResourceTypes.ENDPOINTS, "eds-2")).isNotNull();
  }

  @Test
  void clusterThatNeverArrivedFailsWithTheReasonTheClientKnows() {
    accept();
    String why = "not received within 15 s: no CDS response at all since it was requested";
    xds.statuses(new ResourceStatus(ResourceTypes.CLUSTER_TYPE_URL, "payments", "",
        ResourceState.DOES_NOT_EXIST, Optional.empty(), Optional.of(why)));

    xds.activeWatch(ResourceTypes.CLUSTER, "payments").doesNotExist();

    assertThat(helper.pick().getStatus().getDescription())
        .isEqualTo("cluster payments does not exist: " + why + " (node id test-node)");
  }

  @Test
  void deletedClusterFailsNamingItAndComesBackWhenRecreated() {
    accept();
    cluster(ClusterUpdate.of("payments", "payments-eds"));
    endpoints("payments-eds");
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);

    xds.activeWatch(ResourceTypes.CLUSTER, "payments").doesNotExist();

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    Status status = helper.pick().getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("cluster payments does not exist (node id test-node)");
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
    assertThat(helper.liveSubchannels()).isEmpty();

    cluster(ClusterUpdate.of("payments", "payments-eds"));
    endpoints("payments-eds");
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
  }

  @Test
  void errorBeforeAnyClusterFails() {
    accept();

    xds.activeWatch(ResourceTypes.CLUSTER, "payments")
        .error(Status.UNAVAILABLE.withDescription("ADS stream failed: connection refused; node id n1"));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getDescription()).contains("connection refused").contains("node id n1");
  }

  @Test
  void errorAfterAClusterKeepsServing() {
    accept();
    cluster(ClusterUpdate.of("payments", "payments-eds"));
    endpoints("payments-eds");
    helper.subchannel(address(1)).setState(ConnectivityState.READY);
    int updates = helper.updates.size();

    xds.activeWatch(ResourceTypes.CLUSTER, "payments").error(Status.UNAVAILABLE.withDescription("NACKed v2"));

    assertThat(helper.updates).hasSize(updates);
    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
  }

  @Test
  void upstreamTlsWithoutXdsClusterCredentialsFailsInsteadOfSendingPlaintext() {
    accept();

    cluster(new ClusterUpdate("payments", "payments-eds", false, 1024, LbPolicy.ROUND_ROBIN,
        Optional.of(UpstreamTlsSettings.mutual("default", List.of()))));

    assertThat(helper.state()).isEqualTo(ConnectivityState.TRANSIENT_FAILURE);
    assertThat(helper.pick().getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(helper.pick().getStatus().getDescription())
        .startsWith("cluster payments asks for TLS (transport_socket UpstreamTlsContext), which only channels "
            + "built with io.jxds.balancer.XdsClusterCredentials.create() can honour");
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
  }

  @Test
  void nameResolutionErrorIsIgnoredOnceConfigured() {
    accept();
    cluster(ClusterUpdate.of("payments", "payments-eds"));
    endpoints("payments-eds");
    helper.subchannel(address(1)).setState(ConnectivityState.READY);

    helper.run(() -> balancer.handleNameResolutionError(Status.UNAVAILABLE.withDescription("dns down")));

    assertThat(helper.state()).isEqualTo(ConnectivityState.READY);
  }

  @Test
  void shutdownCancelsEveryWatch() {
    accept();
    cluster(ClusterUpdate.of("payments", "payments-eds"));

    helper.run(balancer::shutdown);

    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isZero();
    assertThat(xds.activeWatchCount(ResourceTypes.ENDPOINTS)).isZero();
  }

  private void accept() {
    helper.run(() -> balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(ClusterPolicyConfig.forCluster("payments"))
        .build()));
  }

  private void cluster(ClusterUpdate update) {
    xds.activeWatch(ResourceTypes.CLUSTER, "payments").update(update);
  }

  private void endpoints(String name) {
    xds.activeWatch(ResourceTypes.ENDPOINTS, name).update(new EndpointsUpdate(
        name, List.of(new Locality(zone("a"), 0, 1, List.of(endpoint(1)))), List.of(), 140));
  }
}
