package io.jxds.examples;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The targets docs/configuration.md shows ({@link Targets}) route real RPCs through the control
 * plane, with the bootstrap that page shows.
 */
class TargetsTest {
  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private final DemoBackends backends = new DemoBackends();
  private ManagedChannel channel;

  @BeforeEach
  void setUp() {
    ads.start();
    backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("a"), HEALTHY))
        .build());
    // docs/configuration.md's bootstrap, pointed at this control plane.
    String bootstrap = DocSnippet.read("docs/configuration.md", "bootstrap.json");
    System.setProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY,
        DocSnippet.withoutRetention(DocSnippet.replace(bootstrap, "xds.example.com:18000", ads.serverUri())));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(EmbeddedDemo.BOOTSTRAP_CONFIG_PROPERTY);
    backends.close();
    ads.stop();
  }

  @Test
  void xdsTargetRoutesThroughTheListenerAndItsRoutes() {
    serveListener("payments");

    channel = Targets.paymentsService();

    assertThat(call(channel)).containsExactly(0x08, 0x01); // SERVING, from backend a
  }

  @Test
  void jxdsSchemeRoutesTheSame() {
    serveListener("payments");

    channel = Targets.paymentsServiceJxds();

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  @Test
  void istioListenerNameHoldsThePort() {
    serveListener("echo.default.svc.cluster.local:8080");

    channel = Targets.istioService();

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  /** Listener {@code name}, whose route configuration sends every call to cluster payments. */
  private void serveListener(String name) {
    ads.setListeners(XdsResources.listener(name).rdsRouteConfig(name + "-routes").build());
    ads.setRoutes(XdsResources.route(name + "-routes").virtualHost("vh", List.of("*"), "payments").build());
  }

  @Test
  void xdsClusterTargetRoutesToTheControlPlanesEndpoint() {
    channel = Targets.paymentsChannel();

    assertThat(call(channel)).containsExactly(0x08, 0x01); // SERVING, from backend a
  }

  @Test
  void istioClusterNameRoutesThroughTheEncodedTarget() {
    String cluster = "outbound|8080||echo.default.svc.cluster.local";
    ads.putClusters(XdsResources.cluster(cluster).build());
    ads.putEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("a"), HEALTHY))
        .build());

    channel = Targets.echoChannel();

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  @Test
  void serviceConfigOnAnyTargetRoutesTheSame() {
    // The DNS resolver's address (a closed port) is ignored: the control plane decides.
    channel = Targets.paymentsChannel("dns:///127.0.0.1:9");

    assertThat(call(channel)).containsExactly(0x08, 0x01);
  }

  @Test
  void hashHeaderServiceConfigRoutesRingHashRequests() {
    ads.putClusters(XdsResources.cluster("carts").lbPolicy(Cluster.LbPolicy.RING_HASH).build());
    ads.putEndpoints(XdsResources.endpoints("carts")
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backends.port("a"), HEALTHY))
        .build());
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-user-id", Metadata.ASCII_STRING_MARSHALLER), "user-1");

    channel = Targets.cartsChannel(InsecureChannelCredentials.create());

    assertThat(call(ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers))))
        .containsExactly(0x08, 0x01);
  }

  private static byte[] call(Channel channel) {
    return ClientCalls.blockingUnaryCall(channel, DemoBackends.HEALTH_CHECK,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]);
  }
}
