package io.jxds.client.csds;

import static io.jxds.client.csds.XdsCsdsServiceTest.noop;
import static io.jxds.client.csds.XdsCsdsServiceTest.ours;
import static io.jxds.client.csds.XdsCsdsServiceTest.resource;
import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.LISTENER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ROUTE_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientConfig.GenericXdsConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.api.ResourceState;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CSDS states gRFC A40 names, each through a real CSDS call: TIMEOUT (the does-not-exist timer
 * fired) apart from DOES_NOT_EXIST (deleted), UNKNOWN while no request reached a server (the
 * client's connection problem, as grpc-java shows it), listeners and route configurations.
 */
class CsdsWholeTruthTest {
  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  private Server csdsServer;
  private ManagedChannel csdsChannel;
  private final List<DefaultXdsClient> clients = new ArrayList<>();

  @BeforeEach
  void startCsds() throws Exception {
    csdsServer = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))
        .addService(new XdsCsdsService())
        .build()
        .start();
    csdsChannel = Grpc.newChannelBuilder("127.0.0.1:" + csdsServer.getPort(), InsecureChannelCredentials.create())
        .build();
  }

  @AfterEach
  void stop() {
    clients.forEach(DefaultXdsClient::close);
    csdsChannel.shutdownNow();
    csdsServer.shutdownNow();
  }

  @Test
  void timerExpiryIsTimeoutAndDeletionIsDoesNotExist() {
    ads.server().setClusters(XdsResources.cluster("gone").build());
    DefaultXdsClient client = newClient(ads.server().serverUri(), "csds-timeout", Duration.ofMillis(500));
    client.watchCluster("gone", noop(), Runnable::run);
    client.watchEndpoints("never-sent", noop(), Runnable::run); // EDS: absence from a response is no deletion
    Poll.until("gone acked", () -> state(client, CLUSTER_TYPE_URL, "gone") == ResourceState.ACKED);
    ads.server().removeClusters("gone");
    Poll.until("both concluded", () -> state(client, CLUSTER_TYPE_URL, "gone") == ResourceState.DOES_NOT_EXIST
        && state(client, ENDPOINTS_TYPE_URL, "never-sent") != ResourceState.REQUESTED);

    ClientConfig config = ours(fetch(), "csds-timeout");

    assertThat(resource(config, ENDPOINTS_TYPE_URL, "never-sent").getClientStatus())
        .isEqualTo(ClientResourceStatus.TIMEOUT);
    assertThat(resource(config, CLUSTER_TYPE_URL, "gone").getClientStatus())
        .isEqualTo(ClientResourceStatus.DOES_NOT_EXIST);
  }

  @Test
  void requestThatReachedNoServerIsUnknown() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = s.getLocalPort();
    }
    DefaultXdsClient client = newClient("127.0.0.1:" + closedPort, "csds-unreachable", Duration.ofSeconds(15));
    client.watchCluster("c", noop(), Runnable::run);
    Poll.until("the stream failed", () -> client.status().resource(CLUSTER_TYPE_URL, "c")
        .flatMap(r -> r.lastError()).isPresent());

    ClientConfig config = ours(fetch(), "csds-unreachable");

    assertThat(resource(config, CLUSTER_TYPE_URL, "c").getClientStatus()).isEqualTo(ClientResourceStatus.UNKNOWN);
    assertThat(client.status().connected()).isFalse();
  }

  @Test
  void listenersAndRouteConfigurationsAreReported() {
    Listener listener = XdsResources.listener("echo:8080").rdsRouteConfig("echo-routes").build();
    ads.server().setListeners(listener);
    ads.server().setRoutes(XdsResources.route("echo-routes").virtualHost("vh", List.of("echo:8080"), "echo").build());
    DefaultXdsClient client = newClient(ads.server().serverUri(), "csds-lds", Duration.ofSeconds(15));
    client.watchListener("echo:8080", noop(), Runnable::run);
    client.watchRouteConfiguration("echo-routes", noop(), Runnable::run);
    Poll.until("both acked", () -> state(client, LISTENER_TYPE_URL, "echo:8080") == ResourceState.ACKED
        && state(client, ROUTE_TYPE_URL, "echo-routes") == ResourceState.ACKED);

    ClientConfig config = ours(fetch(), "csds-lds");

    GenericXdsConfig lds = resource(config, LISTENER_TYPE_URL, "echo:8080");
    assertThat(lds.getClientStatus()).isEqualTo(ClientResourceStatus.ACKED);
    assertThat(lds.getXdsConfig().getValue()).isEqualTo(listener.toByteString());
    assertThat(resource(config, ROUTE_TYPE_URL, "echo-routes").getClientStatus())
        .isEqualTo(ClientResourceStatus.ACKED);
  }

  private DefaultXdsClient newClient(String target, String nodeId, Duration resourceTimeout) {
    DefaultXdsClient client = XdsClientBuilder.forTarget(target, InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId(nodeId).build())
        .resourceTimeout(resourceTimeout)
        .build();
    clients.add(client);
    return client;
  }

  private static ResourceState state(DefaultXdsClient client, String typeUrl, String name) {
    return client.status().resource(typeUrl, name).map(r -> r.state()).orElse(null);
  }

  private ClientStatusResponse fetch() {
    return ClientStatusDiscoveryServiceGrpc.newBlockingStub(csdsChannel)
        .withDeadlineAfter(5, TimeUnit.SECONDS)
        .fetchClientStatus(ClientStatusRequest.getDefaultInstance());
  }
}
