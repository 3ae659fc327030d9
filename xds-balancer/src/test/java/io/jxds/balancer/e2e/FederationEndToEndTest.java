package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
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
 * Federation (gRFC A47) end to end: the test bed's FakeAdsServer is the top-level control plane, a
 * second FakeAdsServer is the authority {@code other.example}'s; a channel's resources come from
 * whichever control plane their names belong to, and its calls reach a real backend.
 */
class FederationEndToEndTest {
  private static final String OTHER_LISTENER = "xdstp://other.example/envoy.config.listener.v3.Listener/ledger";
  private static final String OTHER_CLUSTER = "xdstp://other.example/envoy.config.cluster.v3.Cluster/ledger";

  /** Two control planes, five resources: the first window may still be resolving on a loaded machine. */
  private static final Duration FIRST_CALLS = Duration.ofSeconds(30);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  @RegisterExtension final FakeAdsServerExtension other = FakeAdsServerExtension.loopback();
  private final FakeAdsServer top = bed.ads();

  @Test
  void xdsTargetWithAnAuthorityReadsEachResourceFromItsControlPlane() {
    useFederatedBootstrap();
    TestBackend backend = bed.backends().start("ledger");
    // other.example holds the listener and the cluster; the route configuration and the endpoints
    // have plain names, which the top-level control plane serves.
    other.server().setListeners(XdsResources.listener(OTHER_LISTENER).rdsRouteConfig("ledger-routes").build());
    other.server().setClusters(XdsResources.cluster(OTHER_CLUSTER).edsServiceName("ledger-eds").build());
    top.setRoutes(RouteConfiguration.newBuilder().setName("ledger-routes")
        .addVirtualHosts(VirtualHost.newBuilder().setName("vh").addDomains("*").addRoutes(Route.newBuilder()
            .setMatch(RouteMatch.newBuilder().setPrefix("/"))
            .setRoute(RouteAction.newBuilder().setCluster(OTHER_CLUSTER))))
        .build());
    top.setEndpoints(XdsResources.endpoints("ledger-eds")
        .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build());

    ManagedChannel channel = channel("xds://other.example/ledger");

    assertThat(BackendCalls.awaitCalls(channel, 10, FIRST_CALLS, w -> w.getOrDefault("ledger", 0) == 10))
        .containsOnlyKeys("ledger");
    assertThat(other.server().streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL))
        .containsExactly(OTHER_LISTENER);
    assertThat(other.server().streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL))
        .containsExactly(OTHER_CLUSTER);
    assertThat(top.streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL)).isEmpty();
    assertThat(top.streams().subscribedNames(FakeAdsServer.ENDPOINTS_TYPE_URL)).containsExactly("ledger-eds");
  }

  @Test
  void clusterTargetWithAnXdstpNameReadsItFromItsAuthority() {
    useFederatedBootstrap();
    TestBackend backend = bed.backends().start("ledger");
    other.server().setClusters(XdsResources.cluster(OTHER_CLUSTER).edsServiceName("ledger-eds").build());
    top.setEndpoints(XdsResources.endpoints("ledger-eds")
        .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build());

    ManagedChannel channel = channel(XdsClusterPolicy.target(OTHER_CLUSTER));

    assertThat(BackendCalls.awaitCalls(channel, 10, FIRST_CALLS, w -> w.getOrDefault("ledger", 0) == 10))
        .containsOnlyKeys("ledger");
    assertThat(top.streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL)).isEmpty();
  }

  /** The bed's bootstrap, with the authority other.example on the second control plane. */
  private void useFederatedBootstrap() {
    String json = top.bootstrap().jxdsOption("client_retention", "0s").build();
    String authorities = "\"authorities\": {\"other.example\": {\"xds_servers\": [{\"server_uri\": \""
        + other.server().serverUri() + "\", \"channel_creds\": [{\"type\": \"insecure\"}]}]}},";
    bed.useBootstrap("{" + authorities + json.substring(json.indexOf('{') + 1));
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build());
  }
}
