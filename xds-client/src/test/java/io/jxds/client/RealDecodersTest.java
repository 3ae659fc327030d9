package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** watchCluster / watchEndpoints end to end, with xds-api's real decoders. */
class RealDecodersTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private ManagedChannel channel;
  private DefaultXdsClient client;

  @AfterEach
  void close() {
    client.close();
    channel.shutdownNow();
  }

  private void connect() {
    channel = ads.server().newClientChannel();
    client = XdsClientBuilder.forChannel(channel).node(Node.newBuilder().setId("real").build()).build();
  }

  @Test
  void clusterAndEndpointsAreDecodedIntoTheModel() {
    ads.server().setClusters(XdsResources.cluster("payments").edsServiceName("payments-eds").build());
    ads.server().setEndpoints(
        XdsResources.endpoints("payments-eds")
            .locality("eu", "eu-1a", "", l -> l.weight(3).endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY))
            .build());
    connect();
    RecordingWatcher<ClusterUpdate> clusters = new RecordingWatcher<>();
    RecordingWatcher<EndpointsUpdate> endpoints = new RecordingWatcher<>();
    client.watchCluster("payments", clusters, Runnable::run);
    client.watchEndpoints("payments-eds", endpoints, Runnable::run);
    Poll.until("both", () -> clusters.updates().size() == 1 && endpoints.updates().size() == 1);
    assertThat(clusters.updates().get(0).edsServiceName()).isEqualTo("payments-eds");
    EndpointsUpdate e = endpoints.updates().get(0);
    assertThat(e.localities()).hasSize(1);
    assertThat(e.localities().get(0).weight()).isEqualTo(3);
    assertThat(e.localities().get(0).endpoints()).extracting(Endpoint::address)
        .extracting(a -> a.getAddress().getHostAddress() + ":" + a.getPort())
        .containsExactly("10.0.0.1:8080");
  }

  @Test
  void invalidClusterIsNackedNamingTheField() {
    ads.server().setClusters(XdsResources.cluster("payments").edsConfigPath("/etc/eds.yaml").build());
    connect();
    RecordingWatcher<ClusterUpdate> clusters = new RecordingWatcher<>();
    client.watchCluster("payments", clusters, Runnable::run);
    RecordedRequest nack = ads.server().requests().awaitNack(CLUSTER_TYPE_URL, WAIT);
    assertThat(nack.errorMessage()).contains("payments").contains("eds_config");
    Poll.until("error", () -> clusters.errors().size() == 1);
    assertThat(clusters.errors().get(0).getDescription()).contains("eds_config").contains("node id \"real\"");
  }
}
