package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.action;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.prefix;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.route;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.routes;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.vhost;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.withHeader;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteAction.HashPolicy;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatchAndSubstitute;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.IstioResources;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A route's {@code hash_policy} feeding the ring hash picker of its cluster (gRFC A42), end to end
 * over FakeAdsServer to four real backends: calls with the same key land on one endpoint.
 */
class RouteHashEndToEndTest {
  private static final String LISTENER = "service";

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();

  @Test
  void aHeaderHashPolicySticksEachKeyToOneEndpoint() {
    serve(XdsResources.cluster("h").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        action("h").addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder()
            .setHeaderName("x-user"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertStickyByUser(channel, "x-user", "user-");
  }

  @Test
  void aRegexRewriteDecidesWhichPartOfTheHeaderIsTheKey() {
    serve(XdsResources.cluster("h").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        action("h").addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder()
            .setHeaderName("x-session").setRegexRewrite(RegexMatchAndSubstitute.newBuilder()
                .setPattern(RegexMatcher.newBuilder().setRegex("^(user-[0-9]+)-.*$")).setSubstitution("\\1")))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    Set<String> used = new HashSet<>();
    for (int u = 0; u < 12; u++) {
      String first = call(withHeader(channel, "x-session", "user-" + u + "-tab-a"), CallOptions.DEFAULT);
      String second = call(withHeader(channel, "x-session", "user-" + u + "-tab-b"), CallOptions.DEFAULT);
      assertThat(second).as("user %s's two sessions", u).isEqualTo(first);
      used.add(first);
    }
    assertThat(used).hasSizeGreaterThan(1);
  }

  @Test
  void theChannelIdPolicySendsEveryCallOfAChannelToOneEndpoint() {
    serve(XdsResources.cluster("h").lbPolicy(Cluster.LbPolicy.RING_HASH).build(),
        action("h").addHashPolicy(HashPolicy.newBuilder().setFilterState(HashPolicy.FilterState.newBuilder()
            .setKey("io.grpc.channel_id"))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    Set<String> used = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      used.add(call(channel, CallOptions.DEFAULT)); // no deadline: a loaded machine may take seconds to connect
    }
    assertThat(used).hasSize(1);
  }

  @Test
  void requestHashStillDecidesWhereTheRouteSetsNoPolicy() {
    serve(XdsResources.cluster("h").lbPolicy(Cluster.LbPolicy.RING_HASH).build(), action("h"));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    Set<String> used = new HashSet<>();
    for (long key = 1; key <= 12; key++) {
      CallOptions options = CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, key * 0x9E3779B97F4A7C15L);
      String first = call(channel, options);
      for (int i = 0; i < 3; i++) {
        assertThat(call(channel, options)).as("hash %s", key).isEqualTo(first);
      }
      used.add(first);
    }
    assertThat(used).hasSizeGreaterThan(1);
  }

  @Test
  void anIstioDestinationRulesConsistentHashHeaderIsStickyEndToEnd() {
    String host = "echo.default.svc.cluster.local";
    String cluster = IstioResources.clusterName(host, 7070);
    ads.setClusters(IstioResources.cluster(host, 7070).consistentHash().build());
    ads.setEndpoints(endpoints(cluster));
    ads.setRoutes(IstioResources.routeConfiguration(host, 7070).consistentHashHeader("x-user").build());
    ads.setListeners(IstioResources.listener(host, 7070).build());
    ManagedChannel channel = channel("xds:///" + host + ":7070");

    assertStickyByUser(channel, "x-user", "istio-user-");
  }

  private void assertStickyByUser(Channel channel, String header, String prefix) {
    Set<String> used = new HashSet<>();
    for (int u = 0; u < 12; u++) {
      Channel user = withHeader(channel, header, prefix + u);
      String first = call(user, CallOptions.DEFAULT);
      for (int i = 0; i < 3; i++) {
        assertThat(call(user, CallOptions.DEFAULT)).as("user %s's calls", u).isEqualTo(first);
      }
      used.add(first);
    }
    assertThat(used).as("twelve users over four endpoints").hasSizeGreaterThan(1);
  }

  private static String call(Channel channel, CallOptions options) {
    return new String(ClientCalls.blockingUnaryCall(channel.newCall(TestBackend.NAME_METHOD, options), new byte[0]),
        StandardCharsets.UTF_8);
  }

  private void serve(Cluster cluster, RouteAction.Builder action) {
    ads.setClusters(cluster);
    ads.setEndpoints(endpoints(cluster.getName()));
    ads.setRoutes(routes(vhost(route(prefix("/"), action))));
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig("service-routes").build());
  }

  private io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment endpoints(String cluster) {
    List<TestBackend> backends = List.of(backend("h0"), backend("h1"), backend("h2"), backend("h3"));
    return XdsResources.endpoints(cluster).locality("r", "z", "", l -> {
      l.weight(1);
      for (TestBackend b : backends) {
        l.endpoint(b.ip(), b.port(), HEALTHY);
      }
    }).build();
  }

  private TestBackend backend(String name) {
    try {
      return bed.backends().get(name);
    } catch (IllegalArgumentException absent) {
      return bed.backends().start(name);
    }
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build());
  }
}
