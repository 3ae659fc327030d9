package io.jxds.balancer.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jxds.balancer.internal.resolver.ListenerRouteSource;
import io.jxds.balancer.internal.resolver.RouteSource;
import io.jxds.client.bootstrap.ServerInfo;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.IstioResources;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code xds:///HOST:PORT} channels routed by a real control plane: java-control-plane's SimpleCache
 * and V3DiscoveryServer on a loopback port serve istiod's shapes (gRFC A27, A28; ARCHITECTURE.md,
 * "Routing each call"): the listener {@code HOST:PORT} (an api_listener HttpConnectionManager whose
 * routes come by RDS over ADS), its route configuration splitting calls between two subset clusters,
 * those clusters and their endpoints, each subset one real backend on 127.0.0.1. Over state of the
 * world and over delta; the draws come from a seeded random, so the shares are the same in every run.
 */
class JavaControlPlaneRoutingIntegrationTest {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  private static final String GROUP = "jxds-routing";
  private static final String HOST = "reviews.default.svc.cluster.local";
  private static final int PORT = 9080;
  private static final String ROUTE_TYPE_URL = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  private final TestBackends backends = new TestBackends();
  private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
  private final Random random = new Random(21);
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<DiscoveryRequest> sotwRequests = new CopyOnWriteArrayList<>();
  private final List<DeltaDiscoveryRequest> deltaRequests = new CopyOnWriteArrayList<>();
  private Server controlPlane;
  private String propertyBefore;

  @BeforeEach
  void setUp() throws IOException {
    propertyBefore = System.getProperty(BOOTSTRAP_PROPERTY);
    controlPlane = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new V3DiscoveryServer(new DiscoveryServerCallbacks() {
          @Override
          public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
            sotwRequests.add(request);
          }

          @Override
          public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
            deltaRequests.add(request);
          }
        }, cache).getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
    backends.start("v1");
    backends.start("v2");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (propertyBefore == null) {
      System.clearProperty(BOOTSTRAP_PROPERTY);
    } else {
      System.setProperty(BOOTSTRAP_PROPERTY, propertyBefore);
    }
    backends.close();
    controlPlane.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aNinetyTenSplitOverStateOfTheWorldFollowsASnapshotToFiftyFifty() {
    useBootstrap(false);

    splitsAndFollowsTheUpdate();

    assertThat(deltaRequests).isEmpty();
    assertThat(sotwRequests).noneMatch(DiscoveryRequest::hasErrorDetail);
    assertThat(sotwRequests).as("the second route configuration's ACK")
        .anyMatch(r -> r.getTypeUrl().equals(ROUTE_TYPE_URL) && r.getVersionInfo().equals("2"));
  }

  @Test
  void aNinetyTenSplitOverDeltaFollowsASnapshotToFiftyFifty() {
    useBootstrap(true);

    splitsAndFollowsTheUpdate();

    assertThat(sotwRequests).isEmpty();
    assertThat(deltaRequests).noneMatch(DeltaDiscoveryRequest::hasErrorDetail);
    assertThat(deltaRequests).as("the route configuration's subscription")
        .anyMatch(r -> r.getTypeUrl().equals(ROUTE_TYPE_URL) && r.getResourceNamesSubscribeCount() > 0);
  }

  private void splitsAndFollowsTheUpdate() {
    cache.setSnapshot(GROUP, snapshot("1", 90, 10));
    ManagedChannel channel = channel("xds:///" + HOST + ":" + PORT);
    BackendCalls.awaitCalls(channel, 50, Poll.DEFAULT_TIMEOUT, w -> !w.containsKey(BackendCalls.FAILED));

    Map<String, Integer> window = BackendCalls.calls(channel, 2_000);

    // 2 000 draws of p = 0.1: a standard deviation of 13.4 calls; 3 points is 4.5 of them.
    assertThat(window).containsOnlyKeys("v1", "v2");
    assertThat(BackendCalls.share(window, "v2")).isBetween(0.07, 0.13);

    cache.setSnapshot(GROUP, snapshot("2", 50, 50));

    // 200 draws of p = 0.1 reach 30% of v2 at 9.4 standard deviations: only the new split does.
    BackendCalls.awaitCalls(channel, 200, Poll.DEFAULT_TIMEOUT, w -> BackendCalls.share(w, "v2") >= 0.3);
    Map<String, Integer> after = BackendCalls.calls(channel, 2_000);
    // 2 000 draws of p = 0.5: a standard deviation of 22.4 calls; 5 points is 4.5 of them.
    assertThat(after).containsOnlyKeys("v1", "v2");
    assertThat(BackendCalls.share(after, "v2")).isBetween(0.45, 0.55);
  }

  /** istiod's listener, route configuration, two subset clusters and their endpoints, in one snapshot. */
  private Snapshot snapshot(String version, int v1Weight, int v2Weight) {
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String subset : List.of("v1", "v2")) {
      TestBackend backend = backends.get(subset);
      clusters.add(IstioResources.subsetCluster(HOST, PORT, subset).build());
      assignments.add(IstioResources.subsetEndpoints(HOST, PORT, subset).locality("us-east1/us-east1-b")
          .endpoint(subset, backend.ip(), backend.port()).build());
    }
    return Snapshot.create(clusters, assignments,
        List.of(IstioResources.listener(HOST, PORT).build()),
        List.of(IstioResources.routeConfiguration(HOST, PORT).split("v1", v1Weight, "v2", v2Weight).build()),
        List.of(), version);
  }

  private void useBootstrap(boolean delta) {
    System.setProperty(BOOTSTRAP_PROPERTY, "{\"xds_servers\": [{\"server_uri\": \"127.0.0.1:" + controlPlane.getPort()
        + "\", \"channel_creds\": [{\"type\": \"insecure\"}], \"server_features\": ["
        + (delta ? "\"" + ServerInfo.DELTA + "\"" : "") + "]}], \"node\": {\"id\": \"jcp-routing\"}, "
        + "\"jxds\": {\"client_retention\": \"0s\"}}");
  }

  private ManagedChannel channel(String target) {
    ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
        .setNameResolverArg(RouteSource.FACTORY_ARG, ListenerRouteSource.factory(() -> random))
        .build();
    channels.add(channel);
    return channel;
  }
}
