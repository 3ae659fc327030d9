package io.jxds.testing;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.LISTENER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ROUTE_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's own xDS client, bootstrapped by {@link FakeAdsServer#bootstrap()}, resolves
 * {@code xds:///svc.test} through Listener → RouteConfiguration → Cluster → ClusterLoadAssignment
 * served by the fake and sends RPCs to real servers on 127.0.0.1; the fake records its ACKs and
 * NACKs. If grpc-java works against the fake, users can trust it.
 *
 * <p>grpc-java reads its bootstrap once per JVM, so this class has one fake for all its tests and
 * runs in a surefire execution of its own (see the module's pom).
 */
class GrpcJavaInteropTest {
  private static final String TARGET = "xds:///svc.test";
  private static final String LISTENER = "svc.test";
  private static final String ROUTE = "svc-route";
  private static final String CLUSTER = "svc-cluster";
  /** The health-check service name whose status tells the backends apart. */
  private static final String WHO = "who";
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static FakeAdsServer ads;
  private static Server backendA; // reports WHO as SERVING
  private static Server backendB; // reports WHO as NOT_SERVING

  private ManagedChannel channel;

  @BeforeAll
  static void startControlPlaneAndBackends() throws Exception {
    ads = FakeAdsServer.loopback().start();
    System.setProperty("io.grpc.xds.bootstrapConfig", ads.bootstrap().build());
    backendA = startBackend(ServingStatus.SERVING);
    backendB = startBackend(ServingStatus.NOT_SERVING);
  }

  @AfterAll
  static void stopAll() throws InterruptedException {
    for (Server backend : new Server[] {backendA, backendB}) {
      if (backend != null) {
        backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    if (ads != null) {
      ads.close();
      assertThat(ads.unexpectedErrors()).isEmpty();
    }
    System.clearProperty("io.grpc.xds.bootstrapConfig");
  }

  @BeforeEach
  void serveBaseline() {
    ads.setListeners(listener(LISTENER, ROUTE));
    ads.setRoutes(route(ROUTE, CLUSTER));
    ads.setClusters(cluster(CLUSTER));
    ads.setEndpoints(endpoints(CLUSTER, backendA));
    channel = Grpc.newChannelBuilder(TARGET, InsecureChannelCredentials.create()).build();
  }

  @AfterEach
  void closeChannel() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void grpcJavaRoutesRpcsWithResourcesFromTheFakeAndAcksThem() {
    assertThat(check()).isEqualTo(ServingStatus.SERVING);

    for (String typeUrl :
        new String[] {LISTENER_TYPE_URL, ROUTE_TYPE_URL, CLUSTER_TYPE_URL, ENDPOINTS_TYPE_URL}) {
      RecordedRequest ack = ads.requests().awaitAck(typeUrl, ads.version(typeUrl), TIMEOUT);
      assertThat(ack.raw().getNode().getId()).isEqualTo(FakeAdsBootstrap.DEFAULT_NODE_ID);
    }
    assertThat(ads.streams().subscribedNames(LISTENER_TYPE_URL)).containsExactly(LISTENER);
    assertThat(ads.streams().subscribedNames(ROUTE_TYPE_URL)).containsExactly(ROUTE);
    assertThat(ads.streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly(CLUSTER);
    assertThat(ads.streams().subscribedNames(ENDPOINTS_TYPE_URL)).containsExactly(CLUSTER);
    assertThat(ads.requests().all())
        .noneMatch(r -> r.kind() == RecordedRequest.Kind.UNKNOWN_TYPE);
  }

  @Test
  void endpointUpdateMovesRpcsToTheNewBackend() throws InterruptedException {
    assertThat(check()).isEqualTo(ServingStatus.SERVING);

    ads.setEndpoints(endpoints(CLUSTER, backendB));

    ads.requests().awaitAck(ENDPOINTS_TYPE_URL, ads.version(ENDPOINTS_TYPE_URL), TIMEOUT);
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    ServingStatus status = check();
    while (status != ServingStatus.NOT_SERVING && System.nanoTime() < deadline) {
      Thread.sleep(20);
      status = check();
    }
    assertThat(status).as("RPCs reach backend B").isEqualTo(ServingStatus.NOT_SERVING);
  }

  @Test
  void invalidClusterIsNackedWithItsNameAndLastGoodKept() {
    assertThat(check()).isEqualTo(ServingStatus.SERVING);
    String goodVersion = ads.version(CLUSTER_TYPE_URL);
    ads.requests().awaitAck(CLUSTER_TYPE_URL, goodVersion, TIMEOUT);

    // grpc-java supports round robin, ring hash and least request, not MAGLEV.
    ads.setClusters(cluster(CLUSTER).toBuilder().setLbPolicy(Cluster.LbPolicy.MAGLEV).build());

    RecordedRequest nack = ads.requests().awaitNack(CLUSTER_TYPE_URL, TIMEOUT);
    assertThat(nack.versionInfo()).isEqualTo(goodVersion);
    assertThat(nack.errorMessage()).contains(CLUSTER);
    assertThat(check()).isEqualTo(ServingStatus.SERVING);
  }

  private ServingStatus check() {
    try {
      return HealthGrpc.newBlockingStub(channel)
          .withWaitForReady()
          .withDeadlineAfter(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .check(HealthCheckRequest.newBuilder().setService(WHO).build())
          .getStatus();
    } catch (StatusRuntimeException e) {
      throw new AssertionError("RPC failed; ADS requests: " + ads.requests().all(), e);
    }
  }

  private static Server startBackend(ServingStatus who) throws Exception {
    HealthStatusManager health = new HealthStatusManager();
    health.setStatus(WHO, who);
    return NettyServerBuilder.forAddress(
            new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0),
            InsecureServerCredentials.create())
        .addService(health.getHealthService())
        .build()
        .start();
  }

  // ------------------------------------------------------------ protos grpc-java accepts

  private static Listener listener(String name, String routeName) {
    // gRFC A27: an api_listener whose HttpConnectionManager fetches its routes by RDS over ADS,
    // with the router as the last HTTP filter.
    HttpConnectionManager hcm =
        HttpConnectionManager.newBuilder()
            .setRds(
                Rds.newBuilder()
                    .setRouteConfigName(routeName)
                    .setConfigSource(
                        ConfigSource.newBuilder()
                            .setAds(AggregatedConfigSource.getDefaultInstance())))
            .addHttpFilters(
                HttpFilter.newBuilder()
                    .setName("envoy.filters.http.router")
                    .setTypedConfig(Any.pack(Router.getDefaultInstance())))
            .build();
    return Listener.newBuilder()
        .setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm)))
        .build();
  }

  private static RouteConfiguration route(String name, String cluster) {
    return RouteConfiguration.newBuilder()
        .setName(name)
        .addVirtualHosts(
            VirtualHost.newBuilder()
                .setName("all")
                .addDomains("*")
                .addRoutes(
                    Route.newBuilder()
                        .setMatch(RouteMatch.newBuilder().setPrefix(""))
                        .setRoute(RouteAction.newBuilder().setCluster(cluster))))
        .build();
  }

  private static Cluster cluster(String name) {
    return FakeAdsServerTest.cluster(name).toBuilder()
        .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
        .build();
  }

  private static ClusterLoadAssignment endpoints(String cluster, Server backend) {
    int port = ((InetSocketAddress) backend.getListenSockets().get(0)).getPort();
    return ClusterLoadAssignment.newBuilder()
        .setClusterName(cluster)
        .addEndpoints(
            LocalityLbEndpoints.newBuilder()
                .setLocality(Locality.newBuilder().setRegion("r").setZone("z"))
                // A locality without a weight is ignored by grpc-java.
                .setLoadBalancingWeight(UInt32Value.of(1))
                .addLbEndpoints(
                    LbEndpoint.newBuilder()
                        .setEndpoint(
                            Endpoint.newBuilder()
                                .setAddress(
                                    Address.newBuilder()
                                        .setSocketAddress(
                                            SocketAddress.newBuilder()
                                                .setAddress("127.0.0.1")
                                                .setPortValue(port))))))
        .build();
  }
}
