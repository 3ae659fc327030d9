package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Load reports with federation (gRFC A47): a cluster's {@code lrs_server} {@code self} is the
 * control plane of the cluster's authority, not the top-level one.
 */
class FederationLoadReportTest {
  private static final String OTHER_CLUSTER = "xdstp://other.example/envoy.config.cluster.v3.Cluster/ledger";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  @RegisterExtension final FakeAdsServerExtension other = FakeAdsServerExtension.loopback();
  private final FakeAdsServer top = bed.ads();

  @Test
  void aClusterOfAnotherAuthorityReportsLoadToThatAuthoritysServer() {
    String json = top.bootstrap().jxdsOption("client_retention", "0s").build();
    String authorities = "\"authorities\": {\"other.example\": {\"xds_servers\": [{\"server_uri\": \""
        + other.server().serverUri() + "\", \"channel_creds\": [{\"type\": \"insecure\"}]}]}},";
    bed.useBootstrap("{" + authorities + json.substring(json.indexOf('{') + 1));
    top.loadReports().interval(Duration.ofMillis(200));
    other.server().loadReports().interval(Duration.ofMillis(200));
    TestBackend backend = bed.backends().start("ledger");
    // The cluster is other.example's, its endpoints have a plain name (the top-level server's).
    other.server().setClusters(XdsResources.cluster(OTHER_CLUSTER).edsServiceName("ledger-eds").lrsSelf().build());
    top.setEndpoints(XdsResources.endpoints("ledger-eds")
        .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build());
    ManagedChannel channel = bed.track(
        Grpc.newChannelBuilder(XdsClusterPolicy.target(OTHER_CLUSTER), InsecureChannelCredentials.create()).build());

    assertThat(BackendCalls.awaitCalls(channel, 10, WAIT, w -> w.getOrDefault("ledger", 0) == 10))
        .containsOnlyKeys("ledger");

    other.server().loadReports().awaitTotals(OTHER_CLUSTER, t -> t.succeeded() >= 10, WAIT);
    assertThat(top.loadReports().reports()).as("nothing reported to the top-level server")
        .allSatisfy(r -> assertThat(r.getClusterStatsList()).isEmpty());
    assertThat(top.loadReports().totals(OTHER_CLUSTER).reports()).isZero();
  }
}
