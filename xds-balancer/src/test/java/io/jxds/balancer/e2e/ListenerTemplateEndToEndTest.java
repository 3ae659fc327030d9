package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bootstrap's listener name templates end to end (gRFC A27 {@code
 * client_default_listener_resource_name_template}, A47 {@code authorities}): the name an {@code
 * xds:} channel subscribes to on FakeAdsServer, and the calls it then routes to a real backend.
 */
class ListenerTemplateEndToEndTest {
  private static final String ROUTES = "payments-routes";

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();

  @Test
  void theDefaultTemplateNamesTheListenerAChannelWatchesAndRoutesBy() {
    useBootstrapWith("\"client_default_listener_resource_name_template\": \"xds.example.com/listeners/%s\"");
    // The bare name is served too, to another cluster: a channel that ignored the template would reach it.
    serve(Map.of("xds.example.com/listeners/payments", "pay", "payments", "wrong"));

    ManagedChannel channel = channel("xds:///payments");

    assertThat(BackendCalls.awaitCalls(channel, 10, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault("pay", 0) == 10))
        .containsOnlyKeys("pay");
    assertThat(ads.streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL))
        .containsExactly("xds.example.com/listeners/payments");
  }

  @Test
  void anAuthoritysTemplateNamesTheListenerOfATargetWithThatAuthority() {
    String name = "xdstp://td.example/envoy.config.listener.v3.Listener/grpc/payments";
    useBootstrapWith("\"authorities\": {\"td.example\": {\"client_listener_resource_name_template\": "
        + "\"xdstp://td.example/envoy.config.listener.v3.Listener/grpc/%s\"}}");

    channel("xds://td.example/payments").getState(true);

    Poll.until(() -> "a subscription to " + name + ": " + listeners(), Poll.DEFAULT_TIMEOUT,
        () -> listeners().contains(name));
  }

  @Test
  void aTargetAuthorityTheBootstrapLacksFailsItsCallsNamingIt() {
    useBootstrapWith("\"authorities\": {\"td.example\": {}}");

    ManagedChannel channel = channel("xds://elsewhere.example/payments");

    Poll.until("the channel's failure", () -> BackendCalls.outcome(channel).isPresent());
    Status status = BackendCalls.failure(channel);
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("INVALID_ARGUMENT: invalid target xds://elsewhere.example/payments:"
        + " target authority elsewhere.example is not in the bootstrap's authorities");
  }

  private Set<String> listeners() {
    return ads.streams().subscribedNames(FakeAdsServer.LISTENER_TYPE_URL);
  }

  /** The bed's bootstrap with {@code field} added at the top level. */
  private void useBootstrapWith(String field) {
    String json = ads.bootstrap().jxdsOption("client_retention", "0s").build();
    bed.useBootstrap("{" + field + "," + json.substring(json.indexOf('{') + 1));
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build());
  }

  /** Serves each listener, over its own RDS, to its cluster's one backend (named as the cluster). */
  private void serve(Map<String, String> clusterByListener) {
    ads.setListeners(clusterByListener.entrySet().stream()
        .map(e -> XdsResources.listener(e.getKey()).rdsRouteConfig(ROUTES + "-" + e.getValue()).build())
        .toArray(Listener[]::new));
    ads.setRoutes(clusterByListener.values().stream().map(c -> RouteConfiguration.newBuilder()
        .setName(ROUTES + "-" + c)
        .addVirtualHosts(VirtualHost.newBuilder().setName("vh").addDomains("*").addRoutes(Route.newBuilder()
            .setMatch(RouteMatch.newBuilder().setPrefix("/")).setRoute(RouteAction.newBuilder().setCluster(c))))
        .build()).toArray(RouteConfiguration[]::new));
    ads.setClusters(clusterByListener.values().stream().map(c -> XdsResources.cluster(c).build())
        .toArray(Cluster[]::new));
    ads.setEndpoints(clusterByListener.values().stream().map(c -> {
      TestBackend backend = bed.backends().start(c);
      return XdsResources.endpoints(c)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY)).build();
    }).toArray(ClusterLoadAssignment[]::new));
  }
}
