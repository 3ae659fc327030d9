package io.jxds.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.client.internal.bootstrap.BootstrapParser;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Federation (gRFC A47) with java-control-plane as one of the authorities: a cluster served by the
 * top-level FakeAdsServer names an EDS service in the authority {@code jcp.example}, whose
 * endpoints java-control-plane (SimpleCache + V3DiscoveryServer on loopback) serves.
 */
class JavaControlPlaneFederationTest {
  private static final String EDS_NAME =
      "xdstp://jcp.example/envoy.config.endpoint.v3.ClusterLoadAssignment/payments";

  @RegisterExtension final FakeAdsServerExtension fake = FakeAdsServerExtension.loopback();

  private Server jcp;
  private DefaultXdsClient client;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (jcp != null) {
      jcp.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void clusterFromOneControlPlaneEndpointsFromAnother() throws Exception {
    SimpleCache<String> cache = new SimpleCache<>(node -> "group");
    ClusterLoadAssignment cla = XdsResources.endpoints(EDS_NAME)
        .locality("eu", "eu-1a", "", l -> l.endpoint("10.0.0.7", 8080, HealthStatus.HEALTHY))
        .build();
    cache.setSnapshot("group", Snapshot.create(List.of(), List.of(cla), List.of(), List.of(), List.of(), "1"));
    jcp = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new V3DiscoveryServer(cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
    fake.server().setClusters(XdsResources.cluster("payments").edsServiceName(EDS_NAME).build());
    String json = """
        {
          "xds_servers": [{"server_uri": "FAKE", "channel_creds": [{"type": "insecure"}]}],
          "node": {"id": "federated-jcp"},
          "authorities": {"jcp.example": {"xds_servers": [{"server_uri": "127.0.0.1:PORT",
                                                           "channel_creds": [{"type": "insecure"}]}]}}
        }
        """.replace("FAKE", fake.server().serverUri()).replace("PORT", Integer.toString(jcp.getPort()));
    client = XdsClientBuilder.fromBootstrap(BootstrapParser.parse(json, "test")).build();

    RecordingWatcher<ClusterUpdate> cluster = new RecordingWatcher<>();
    RecordingWatcher<EndpointsUpdate> endpoints = new RecordingWatcher<>();
    client.watchCluster("payments", cluster, Runnable::run);
    Poll.until("cluster", () -> cluster.updates().size() == 1);
    client.watchEndpoints(cluster.updates().get(0).edsServiceName(), endpoints, Runnable::run);

    Poll.until("endpoints from java-control-plane", () -> endpoints.updates().size() == 1);
    assertThat(endpoints.updates().get(0).localities()).hasSize(1);
    assertThat(fake.server().requests().ofType(FakeAdsServer.ENDPOINTS_TYPE_URL)).isEmpty();
    assertThat(client.status().resource(FakeAdsServer.ENDPOINTS_TYPE_URL, EDS_NAME)).isPresent();
  }
}
