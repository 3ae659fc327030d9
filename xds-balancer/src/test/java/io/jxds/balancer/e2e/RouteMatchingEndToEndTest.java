package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.jxds.balancer.internal.resolver.ListenerRouteSource;
import io.jxds.balancer.internal.resolver.RouteSource;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Route matching rules end to end (gRFC A28) that XdsRoutingEndToEndTest leaves to the engine's
 * unit tests: each case here failed when the rule was broken in the engine on purpose (a mutation
 * check), while every XdsRoutingEndToEndTest case still passed. FakeAdsServer serves the listener,
 * its route configuration, the clusters and their endpoints; each cluster has one real backend of
 * its own name on 127.0.0.1.
 */
class RouteMatchingEndToEndTest {
  private static final String LISTENER = "service";
  private static final String ROUTES = "service-routes";
  /**
   * A new channel's first calls wait for the listener, routes, cluster and endpoints and for the
   * JVM to warm up: on a loaded machine the first test's took more than Poll's default 10 s.
   */
  private static final Duration FIRST_CALLS = Duration.ofSeconds(30);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final Random random = new Random(21);

  @Test
  void anInvertedHeaderMatcherTakesTheCallsItsMatcherWouldNot() {
    serveClusters("normal", "debug", "not-prod", "prod");
    serveRoutes(vhost("*",
        // present_match with invert_match: the calls without x-debug.
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-debug")
            .setPresentMatch(true).setInvertMatch(true)).build(), cluster("normal")),
        // string_match exact "prod" with invert_match: x-env present and not "prod".
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-env")
            .setStringMatch(StringMatcher.newBuilder().setExact("prod")).setInvertMatch(true)).build(),
            cluster("not-prod")),
        route(RouteMatch.newBuilder().setPrefix("/").build(), cluster("prod"))));
    ManagedChannel channel = channel();

    assertThat(BackendCalls.awaitCalls(channel, 5, FIRST_CALLS, w -> w.getOrDefault("normal", 0) == 5))
        .containsOnlyKeys("normal");
    Channel debug = withHeader(channel, "x-debug", "1");
    assertThat(BackendCalls.calls(withHeader(debug, "x-env", "staging"), 10)).containsOnlyKeys("not-prod");
    assertThat(BackendCalls.calls(withHeader(debug, "x-env", "prod"), 10)).containsOnlyKeys("prod");
    assertThat(BackendCalls.calls(debug, 10)).as("x-env absent: an inverted string match needs the header")
        .containsOnlyKeys("prod");
  }

  @Test
  void aRuntimeFractionTakesItsShareOfTheCallsAndZeroTakesNone() {
    serveClusters("never", "quarter", "rest");
    serveRoutes(vhost("*",
        route(RouteMatch.newBuilder().setPrefix("/").setRuntimeFraction(fraction(0)).build(), cluster("never")),
        route(RouteMatch.newBuilder().setPrefix("/").setRuntimeFraction(fraction(25)).build(), cluster("quarter")),
        route(RouteMatch.newBuilder().setPrefix("/").build(), cluster("rest"))));
    ManagedChannel channel = channel();
    BackendCalls.awaitCalls(channel, 20, FIRST_CALLS, w -> !w.containsKey(BackendCalls.FAILED));

    Map<String, Integer> window = BackendCalls.calls(channel, 1_000);

    // 1 000 draws of p = 0.25: a standard deviation of 13.7 calls; 5 points is 3.7 of them.
    assertThat(window).containsOnlyKeys("quarter", "rest");
    assertThat(BackendCalls.share(window, "quarter")).isBetween(0.20, 0.30);
  }

  @Test
  void aRangeMatchExcludesItsEnd() {
    serveClusters("in-range", "rest");
    serveRoutes(vhost("*",
        route(RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName("x-n")
            .setRangeMatch(Int64Range.newBuilder().setStart(10).setEnd(20))).build(), cluster("in-range")),
        route(RouteMatch.newBuilder().setPrefix("/").build(), cluster("rest"))));
    ManagedChannel channel = channel();
    BackendCalls.awaitCalls(channel, 5, FIRST_CALLS, w -> w.getOrDefault("rest", 0) == 5);

    // envoy.type.v3.Int64Range is [start, end).
    assertThat(BackendCalls.calls(withHeader(channel, "x-n", "10"), 5)).containsOnlyKeys("in-range");
    assertThat(BackendCalls.calls(withHeader(channel, "x-n", "19"), 5)).containsOnlyKeys("in-range");
    assertThat(BackendCalls.calls(withHeader(channel, "x-n", "20"), 5)).containsOnlyKeys("rest");
    assertThat(BackendCalls.calls(withHeader(channel, "x-n", "9"), 5)).containsOnlyKeys("rest");
  }

  @Test
  void aSuffixDomainBeatsALongerPrefixDomain() {
    serveClusters("suffix", "prefix", "any");
    // gRFC A27: exact, then *.suffix, then prefix.*, then *; the longest within a kind.
    String host = "foo.bar.com";
    ads.setRoutes(RouteConfiguration.newBuilder().setName(ROUTES)
        .addVirtualHosts(vhost("prefix", List.of("foo.bar.c*"), cluster("prefix")))
        .addVirtualHosts(vhost("suffix", List.of("*.bar.com"), cluster("suffix")))
        .addVirtualHosts(vhost("any", List.of("*"), cluster("any")))
        .build());
    ads.setListeners(XdsResources.listener(host).rdsRouteConfig(ROUTES).build());

    ManagedChannel channel = bed.track(Grpc.newChannelBuilder("xds:///" + host, InsecureChannelCredentials.create())
        .build());

    assertThat(BackendCalls.awaitCalls(channel, 5, FIRST_CALLS, w -> !w.containsKey(BackendCalls.FAILED)))
        .containsOnlyKeys("suffix");
  }

  // ------------------------------------------------------------------------------------------

  private ManagedChannel channel() {
    return bed.track(Grpc.newChannelBuilder("xds:///" + LISTENER, InsecureChannelCredentials.create())
        .setNameResolverArg(RouteSource.FACTORY_ARG, ListenerRouteSource.factory(() -> random))
        .build());
  }

  private static Channel withHeader(Channel channel, String name, String value) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value);
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** The listener {@code service} over RDS {@code service-routes}, and those routes. */
  private void serveRoutes(VirtualHost... hosts) {
    ads.setRoutes(RouteConfiguration.newBuilder().setName(ROUTES).addAllVirtualHosts(List.of(hosts)).build());
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES).build());
  }

  private static VirtualHost vhost(String name, List<String> domains, RouteAction action) {
    return VirtualHost.newBuilder().setName(name).addAllDomains(domains)
        .addRoutes(route(RouteMatch.newBuilder().setPrefix("/").build(), action)).build();
  }

  private static RuntimeFractionalPercent fraction(int percent) {
    return RuntimeFractionalPercent.newBuilder().setDefaultValue(FractionalPercent.newBuilder()
        .setNumerator(percent).setDenominator(FractionalPercent.DenominatorType.HUNDRED)).build();
  }

  private static VirtualHost vhost(String domain, Route... routes) {
    return VirtualHost.newBuilder().setName("vh").addDomains(domain).addAllRoutes(List.of(routes)).build();
  }

  private static Route route(RouteMatch match, RouteAction action) {
    return Route.newBuilder().setMatch(match).setRoute(action).build();
  }

  private static RouteAction cluster(String name) {
    return RouteAction.newBuilder().setCluster(name).build();
  }

  /** Serves each cluster by CDS and EDS, each with one backend of its own name. */
  private void serveClusters(String... names) {
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> assignments = new ArrayList<>();
    for (String name : names) {
      TestBackend backend = bed.backends().start(name);
      clusters.add(XdsResources.cluster(name).build());
      assignments.add(XdsResources.endpoints(name)
          .locality("r", "z", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), HEALTHY))
          .build());
    }
    ads.setClusters(clusters.toArray(Cluster[]::new));
    ads.setEndpoints(assignments.toArray(ClusterLoadAssignment[]::new));
  }
}
