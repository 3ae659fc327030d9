package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The control plane on a unix domain socket, as istio-agent serves ADS to proxyless gRPC on
 * {@code unix:///etc/istio/proxy/XDS}: the bootstrap's {@code server_uri} names the socket in each
 * form gRPC accepts, and a channel on {@code xds-cluster:///} routes to a real backend. Linux with
 * epoll only (grpc-netty's unix-socket transport); skipped elsewhere.
 */
class UnixSocketAdsEndToEndTest {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  private static final String CLUSTER = "outbound|8080||echo.default.svc.cluster.local";

  private Path socket;
  private FakeAdsServer ads;
  private final TestBackends backends = new TestBackends();
  private ManagedChannel channel;

  @BeforeEach
  void setUp(@org.junit.jupiter.api.io.TempDir Path dir) {
    assumeTrue(FakeAdsServer.unixSocketsSupported(), "unix domain sockets need Linux with epoll");
    socket = dir.resolve("XDS").toAbsolutePath();
    ads = FakeAdsServer.unixSocket(socket).start();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(BOOTSTRAP_PROPERTY);
    backends.close();
    if (ads != null) {
      ads.stop();
      assertThat(ads.unexpectedErrors()).isEmpty();
    }
  }

  /**
   * istio-agent writes {@code "unix:///" + path}: {@code unix:///./etc/istio/proxy/XDS} from its
   * default relative path in older releases, {@code unix:////etc/istio/proxy/XDS} from an absolute
   * one in newer releases; both name the same file.
   */
  @ParameterizedTest(name = "server_uri {0}")
  @ValueSource(strings = {
      "unix://ABSOLUTE", "unix:ABSOLUTE", "unix:RELATIVE", "unix:///./FROM_ROOT", "unix:///ABSOLUTE"})
  void channelRoutesThroughAControlPlaneOnAUnixSocket(String form) throws Exception {
    String serverUri = form
        .replace("ABSOLUTE", socket.toString())
        .replace("FROM_ROOT", socket.getRoot().relativize(socket).toString())
        .replace("RELATIVE", Path.of("").toAbsolutePath().relativize(socket).toString());
    String bootstrap = ads.bootstrap().jxdsOption("client_retention", "0s").build();
    assertThat(bootstrap).contains("\"server_uri\": \"unix://" + socket + "\"");
    System.setProperty(BOOTSTRAP_PROPERTY,
        bootstrap.replace("\"server_uri\": \"unix://" + socket + "\"", "\"server_uri\": \"" + serverUri + "\""));
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster(CLUSTER).build());
    ads.setEndpoints(XdsResources.endpoints(CLUSTER)
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY))
        .build());

    channel = Grpc.newChannelBuilder(XdsClusterPolicy.target(CLUSTER), InsecureChannelCredentials.create()).build();

    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    assertThat(ads.requests().lastAck(FakeAdsServer.ENDPOINTS_TYPE_URL)).isPresent();
  }
}
