package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.route.v3.ClusterSpecifierPlugin;
import io.envoyproxy.envoy.config.route.v3.DirectResponseAction;
import io.envoyproxy.envoy.config.route.v3.FilterAction;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.NonForwardingAction;
import io.envoyproxy.envoy.config.route.v3.QueryParameterMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.http.stateful_session.v3.StatefulSessionPerRoute;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.HeaderMatcher.PresentMatch;
import io.jxds.api.model.route.HeaderMatcher.RangeMatch;
import io.jxds.api.model.route.HeaderMatcher.StringMatch;
import io.jxds.api.model.route.RuntimeFraction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per RouteConfiguration validation rule (gRFC A28, A39, A63), valid and invalid. */
class RouteConfigurationDecoderTest {
  private static final String R0 = "virtual_hosts[0].routes[0]";

  @Test
  void virtualHostsAndRoutesDecodeInOrder() throws Exception {
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(config(
        VirtualHost.newBuilder().setName("a").addDomains("a.example.com")
            .addRoutes(route(prefix("/svc.A/"), cluster("ca")).setName("first"))
            .addRoutes(route(prefix(""), cluster("cb")))
            .build(),
        VirtualHost.newBuilder().setName("b").addDomains("*").addRoutes(route(prefix("/"), cluster("cc"))).build()));
    assertThat(update.name()).isEqualTo("rc");
    assertThat(update.virtualHosts()).extracting(io.jxds.api.model.route.VirtualHost::name).containsExactly("a", "b");
    io.jxds.api.model.route.VirtualHost a = update.virtualHosts().get(0);
    assertThat(a.routes()).extracting(io.jxds.api.model.route.Route::name).containsExactly("first", "routes[1]");
    assertThat(a.routes().get(0).match())
        .isEqualTo(io.jxds.api.model.route.RouteMatch.path(new io.jxds.api.model.route.StringMatcher.Prefix(
            "/svc.A/", false)));
    assertThat(a.routes().get(1).action()).isEqualTo(new io.jxds.api.model.route.RouteAction.Cluster("cb"));
  }

  @Test
  void emptyNameIsRejected() {
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(RouteConfiguration.getDefaultInstance()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("RouteConfiguration \"\": name must not be empty, got \"\"");
  }

  @Test
  void noVirtualHostIsAccepted() throws Exception {
    assertThat(RouteConfigurationDecoder.decode(RouteConfiguration.newBuilder().setName("rc").build()).virtualHosts())
        .isEmpty();
  }

  // domains

  @Test
  void domainsAreLowerCasedAndLoseATrailingDot() throws Exception {
    // istiod 1.28+ adds absolute forms, FQDN. and FQDN.:port, next to the plain ones
    VirtualHost host = VirtualHost.newBuilder().setName("vh")
        .addAllDomains(List.of("Echo.Default.svc.cluster.local", "echo.default.svc.cluster.local.",
            "echo.default.svc.cluster.local.:8080", "echo:8080", "*.Example.com", "foo-*", "*"))
        .addRoutes(route(prefix(""), cluster("c"))).build();
    assertThat(RouteConfigurationDecoder.decode(config(host)).virtualHosts().get(0).domains())
        .containsExactly("echo.default.svc.cluster.local", "echo.default.svc.cluster.local:8080", "echo:8080",
            "*.example.com", "foo-*", "*");
  }

  @Test
  void malformedDomainsAreLeftOutNotRejected() throws Exception {
    VirtualHost host = VirtualHost.newBuilder().setName("vh")
        .addAllDomains(List.of("", ".", ".x", "x..", "a*b", "*a*", "**", "ok.example.com", "[::1]:8080"))
        .addRoutes(route(prefix(""), cluster("c"))).build();
    assertThat(RouteConfigurationDecoder.decode(config(host)).virtualHosts().get(0).domains())
        .containsExactly("ok.example.com", "[::1]:8080");
  }

  // match

  @Test
  void caseSensitiveUnsetMeansCaseSensitive() throws Exception {
    // envoy and gRFC A28: default true; grpc-java reads unset as false
    assertThat(firstRoute(route(prefix("/Svc/"), cluster("c"))).match().path())
        .isEqualTo(new io.jxds.api.model.route.StringMatcher.Prefix("/Svc/", false));
    assertThat(firstRoute(route(RouteMatch.newBuilder().setPath("/Svc/Get")
            .setCaseSensitive(BoolValue.of(false)), cluster("c"))).match().path())
        .isEqualTo(new io.jxds.api.model.route.StringMatcher.Exact("/Svc/Get", true));
    assertThat(firstRoute(route(RouteMatch.newBuilder().setPath("/Svc/Get")
            .setCaseSensitive(BoolValue.of(true)), cluster("c"))).match().path())
        .isEqualTo(new io.jxds.api.model.route.StringMatcher.Exact("/Svc/Get", false));
  }

  @Test
  void safeRegexPathIsCompiledWithRe2() throws Exception {
    io.jxds.api.model.route.StringMatcher path = firstRoute(route(RouteMatch.newBuilder()
        .setSafeRegex(RegexMatcher.newBuilder().setRegex("/svc/.*")), cluster("c"))).match().path();
    assertThat(path.matches("/svc/Get")).isTrue();
    assertThat(path.matches("/other/Get")).isFalse();
  }

  @Test
  void invalidPathRegexIsRejectedNamingTheField() {
    assertNack(config(host(route(RouteMatch.newBuilder()
            .setSafeRegex(RegexMatcher.newBuilder().setRegex("(a)\\1")), cluster("c")))),
        R0 + ".match.safe_regex.regex must be an RE2 regular expression, got \"(a)\\1\" "
            + "(error parsing regexp: invalid escape sequence: `\\1`)");
  }

  @Test
  void regexThatWouldBlowUpRe2jIsRejected() {
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(config(host(route(RouteMatch.newBuilder()
        .setSafeRegex(RegexMatcher.newBuilder().setRegex("((a{1000}){1000}){1000}")), cluster("c"))))))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining(R0 + ".match.safe_regex.regex must be an RE2 regular expression")
        .hasMessageContaining("invalid repeat count");
  }

  @Test
  void unknownPathSpecifierIsRejected() {
    assertNack(config(host(route(RouteMatch.newBuilder(), cluster("c")))),
        R0 + ".match.path_specifier must be prefix, path or safe_regex, got unset");
    assertNack(config(host(route(RouteMatch.newBuilder().setPathSeparatedPrefix("/a"), cluster("c")))),
        R0 + ".match.path_specifier must be prefix, path or safe_regex, got path_separated_prefix");
  }

  @Test
  void routeWithQueryParametersIsLeftOut() throws Exception {
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(config(host(
        route(prefix("").addQueryParameters(QueryParameterMatcher.newBuilder().setName("q")), cluster("a")),
        route(prefix(""), cluster("b")))));
    assertThat(update.virtualHosts().get(0).routes()).extracting(io.jxds.api.model.route.Route::name)
        .containsExactly("routes[1]");
  }

  @Test
  void headerMatchersOfEveryKindDecode() throws Exception {
    RouteMatch.Builder match = prefix("")
        .addHeaders(header("X-Exact").setExactMatch("v"))
        .addHeaders(header("x-regex").setSafeRegexMatch(RegexMatcher.newBuilder().setRegex("v[0-9]")))
        .addHeaders(header("x-range").setRangeMatch(Int64Range.newBuilder().setStart(1).setEnd(10)))
        .addHeaders(header("x-present").setPresentMatch(true))
        .addHeaders(header("x-prefix").setPrefixMatch("p"))
        .addHeaders(header("x-suffix").setSuffixMatch("s"))
        .addHeaders(header("x-contains").setContainsMatch("c"))
        .addHeaders(header("x-string").setStringMatch(StringMatcher.newBuilder().setExact("V").setIgnoreCase(true))
            .setInvertMatch(true).setTreatMissingHeaderAsEmpty(true));
    List<io.jxds.api.model.route.HeaderMatcher> headers = firstRoute(route(match, cluster("c"))).match().headers();
    assertThat(headers).hasSize(8);
    assertThat(headers.get(0)).isEqualTo(io.jxds.api.model.route.HeaderMatcher.of("x-exact",
        new StringMatch(new io.jxds.api.model.route.StringMatcher.Exact("v", false))));
    assertThat(headers.get(1).matches("v7")).isTrue();
    assertThat(headers.get(2).match()).isEqualTo(new RangeMatch(1, 10));
    assertThat(headers.get(3).match()).isEqualTo(new PresentMatch(true));
    assertThat(headers.get(4).match())
        .isEqualTo(new StringMatch(new io.jxds.api.model.route.StringMatcher.Prefix("p", false)));
    assertThat(headers.get(5).match())
        .isEqualTo(new StringMatch(new io.jxds.api.model.route.StringMatcher.Suffix("s", false)));
    assertThat(headers.get(6).match())
        .isEqualTo(new StringMatch(new io.jxds.api.model.route.StringMatcher.Contains("c", false)));
    assertThat(headers.get(7)).isEqualTo(new io.jxds.api.model.route.HeaderMatcher("x-string",
        new StringMatch(new io.jxds.api.model.route.StringMatcher.Exact("V", true)), true, true));
  }

  @Test
  void invalidHeaderMatchersAreRejectedNamingTheField() {
    assertNack(config(host(route(prefix("").addHeaders(header("x")), cluster("c")))),
        R0 + ".match.headers[0].header_match_specifier must be set, got unset");
    assertNack(config(host(route(prefix("").addHeaders(header("").setPresentMatch(true)), cluster("c")))),
        R0 + ".match.headers[0].name must not be empty, got \"\"");
    assertNack(config(host(route(prefix("").addHeaders(header("x").setSafeRegexMatch(
            RegexMatcher.newBuilder().setRegex("a(?=b)"))), cluster("c")))),
        R0 + ".match.headers[0].safe_regex_match.regex must be an RE2 regular expression, got \"a(?=b)\" "
            + "(error parsing regexp: invalid or unsupported Perl syntax: `(?=`)");
    assertNack(config(host(route(prefix("").addHeaders(header("x").setRangeMatch(
            Int64Range.newBuilder().setStart(5).setEnd(4))), cluster("c")))),
        R0 + ".match.headers[0].range_match.end must be at least start, got [5, 4)");
    assertNack(config(host(route(prefix("").addHeaders(header("x").setStringMatch(StringMatcher.getDefaultInstance())),
            cluster("c")))),
        R0 + ".match.headers[0].string_match.match_pattern must be exact, prefix, suffix, contains or safe_regex, "
            + "got unset");
    assertNack(config(host(route(prefix("").addHeaders(header("x").setStringMatch(StringMatcher.newBuilder()
            .setCustom(com.github.xds.core.v3.TypedExtensionConfig.newBuilder().setName("lua")))), cluster("c")))),
        R0 + ".match.headers[0].string_match.match_pattern must be exact, prefix, suffix, contains or safe_regex, "
            + "got custom \"lua\"");
  }

  @Test
  void runtimeFractionReadsItsDefaultValue() throws Exception {
    RouteMatch.Builder match = prefix("").setRuntimeFraction(RuntimeFractionalPercent.newBuilder().setRuntimeKey("k")
        .setDefaultValue(FractionalPercent.newBuilder().setNumerator(-1) // 2^32-1, read unsigned
            .setDenominator(FractionalPercent.DenominatorType.TEN_THOUSAND)));
    assertThat(firstRoute(route(match, cluster("c"))).match().runtimeFraction())
        .contains(new RuntimeFraction(0xFFFF_FFFFL, 10_000));
  }

  @Test
  void unknownRuntimeFractionDenominatorIsRejected() {
    RouteMatch.Builder match = prefix("").setRuntimeFraction(RuntimeFractionalPercent.newBuilder()
        .setDefaultValue(FractionalPercent.newBuilder().setNumerator(5).setDenominatorValue(7)));
    assertNack(config(host(route(match, cluster("c")))),
        R0 + ".match.runtime_fraction.default_value.denominator must be HUNDRED, TEN_THOUSAND or MILLION, got 7");
  }

  // actions

  @Test
  void weightedClustersKeepWeightsAndZeroes() throws Exception {
    Route.Builder r = route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
        .addClusters(weight("canary", 10)).addClusters(weight("stable", 90)).addClusters(weight("off", 0))
        .setTotalWeight(UInt32Value.of(7)))); // total_weight is not read
    assertThat(firstRoute(r).action()).isEqualTo(new io.jxds.api.model.route.RouteAction.WeightedClusters(
        List.of(new ClusterWeight("canary", 10), new ClusterWeight("stable", 90), new ClusterWeight("off", 0))));
  }

  @Test
  void weightsAreReadUnsigned() throws Exception {
    Route.Builder r = route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
        .addClusters(weight("big", -2)))); // 2^32-2
    assertThat(((io.jxds.api.model.route.RouteAction.WeightedClusters) firstRoute(r).action()).totalWeight())
        .isEqualTo(0xFFFF_FFFEL);
  }

  @Test
  void weightedClustersSummingToZeroOrOverUint32AreRejected() {
    assertNack(config(host(route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(weight("a", 0)).addClusters(weight("b", 0)))))),
        R0 + ".route.weighted_clusters.clusters[*].weight must sum to [1, 4294967295], got 0");
    assertNack(config(host(route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(weight("a", -1)).addClusters(weight("b", 1)))))),
        R0 + ".route.weighted_clusters.clusters[*].weight must sum to [1, 4294967295], got 4294967296");
  }

  @Test
  void weightedClustersMustListNamedClusters() {
    assertNack(config(host(route(prefix(""), RouteAction.newBuilder().setWeightedClusters(
            WeightedCluster.getDefaultInstance())))),
        R0 + ".route.weighted_clusters.clusters must not be empty, got 0 entries");
    assertNack(config(host(route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(weight("", 1)))))),
        R0 + ".route.weighted_clusters.clusters[0].name must not be empty, got \"\"");
  }

  @Test
  void emptyClusterIsRejected() {
    assertNack(config(host(route(prefix(""), cluster("")))), R0 + ".route.cluster must not be empty, got \"\"");
  }

  @Test
  void clusterHeaderAndUnsetClusterSpecifierLeaveTheRouteOut() throws Exception {
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(config(host(
        route(prefix(""), RouteAction.newBuilder().setClusterHeader("x-cluster")),
        route(prefix(""), RouteAction.newBuilder()),
        route(prefix(""), cluster("c")))));
    assertThat(update.virtualHosts().get(0).routes()).extracting(io.jxds.api.model.route.Route::name)
        .containsExactly("routes[2]");
  }

  @Test
  void optionalPluginRoutesAreLeftOutAndRequiredPluginsRejected() throws Exception {
    ClusterSpecifierPlugin rls = ClusterSpecifierPlugin.newBuilder().setExtension(TypedExtensionConfig.newBuilder()
        .setName("rls").setTypedConfig(Any.pack(StringValue.of("rls config")))).build();
    RouteConfiguration optional = config(host(
        route(prefix(""), RouteAction.newBuilder().setClusterSpecifierPlugin("rls")),
        route(prefix(""), cluster("c")))).toBuilder()
        .addClusterSpecifierPlugins(rls.toBuilder().setIsOptional(true)).build();
    assertThat(RouteConfigurationDecoder.decode(optional).virtualHosts().get(0).routes())
        .extracting(io.jxds.api.model.route.Route::name).containsExactly("routes[1]");

    RouteConfiguration required = optional.toBuilder().setClusterSpecifierPlugins(0, rls).build();
    assertNack(required, "cluster_specifier_plugins[0].extension.typed_config must be a plugin jxds supports (none) or "
        + "is_optional, got \"type.googleapis.com/google.protobuf.StringValue\" (plugin \"rls\")");

    RouteConfiguration undefined = config(host(
        route(prefix(""), RouteAction.newBuilder().setClusterSpecifierPlugin("nope"))));
    assertNack(undefined, R0 + ".route.cluster_specifier_plugin must name an entry of cluster_specifier_plugins, "
        + "got \"nope\"");

    RouteConfiguration duplicate = optional.toBuilder().addClusterSpecifierPlugins(rls.toBuilder().setIsOptional(true))
        .build();
    assertNack(duplicate, "cluster_specifier_plugins[1].extension.name must be unique, got \"rls\" "
        + "(also cluster_specifier_plugins[0])");
  }

  @Test
  void actionsGrpcCannotServeAreAcceptedAsNotForwarded() throws Exception {
    // istiod emits redirect and direct_response for a VirtualService's redirect and directResponse;
    // grpc-java NACKs the whole resource for them
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(config(host(
        Route.newBuilder().setName("nf").setMatch(prefix("/a")).setNonForwardingAction(
            NonForwardingAction.getDefaultInstance()),
        Route.newBuilder().setName("redirect").setMatch(prefix("/b")).setRedirect(
            RedirectAction.newBuilder().setHostRedirect("elsewhere")),
        Route.newBuilder().setName("direct").setMatch(prefix("/c")).setDirectResponse(
            DirectResponseAction.newBuilder().setStatus(503)),
        Route.newBuilder().setName("filter").setMatch(prefix("/d")).setFilterAction(FilterAction.getDefaultInstance()),
        route(prefix(""), cluster("c")))));
    assertThat(update.virtualHosts().get(0).routes()).extracting(io.jxds.api.model.route.Route::action)
        .containsExactly(
            new io.jxds.api.model.route.RouteAction.NotForwarded("non_forwarding_action"),
            new io.jxds.api.model.route.RouteAction.NotForwarded("redirect"),
            new io.jxds.api.model.route.RouteAction.NotForwarded("direct_response"),
            new io.jxds.api.model.route.RouteAction.NotForwarded("filter_action"),
            new io.jxds.api.model.route.RouteAction.Cluster("c"));
  }

  @Test
  void unsetActionIsRejected() {
    assertNack(config(host(Route.newBuilder().setMatch(prefix("")))), R0 + ".action must be set, got unset");
  }

  // typed_per_filter_config (gRFC A39)

  @Test
  void unknownOverridesAreAcceptedAsIstioSendsThem() throws Exception {
    // istiod's CORS policy and persistent-session overrides; grpc-java NACKs both
    Route.Builder r = route(prefix(""), cluster("c"))
        .putTypedPerFilterConfig("envoy.filters.http.cors", Any.pack(CorsPolicy.getDefaultInstance()))
        .putTypedPerFilterConfig("envoy.filters.http.stateful_session",
            Any.pack(StatefulSessionPerRoute.getDefaultInstance()));
    VirtualHost host = host(r).toBuilder()
        .putTypedPerFilterConfig("envoy.filters.http.cors", Any.pack(CorsPolicy.getDefaultInstance())).build();
    assertThat(RouteConfigurationDecoder.decode(config(host)).virtualHosts().get(0).routes()).hasSize(1);
  }

  @Test
  void routerOverrideIsRejectedWhereverItIs() {
    Any router = Any.pack(Router.getDefaultInstance());
    assertNack(config(host(route(prefix(""), cluster("c"))
            .putTypedPerFilterConfig("envoy.filters.http.router", router))),
        R0 + ".typed_per_filter_config[\"envoy.filters.http.router\"] must not configure the router filter, which "
            + "takes no override, got \"type.googleapis.com/envoy.extensions.filters.http.router.v3.Router\"");
    assertNack(config(host(route(prefix(""), cluster("c"))).toBuilder().putTypedPerFilterConfig("r",
            Any.pack(FilterConfig.newBuilder().setConfig(router).build())).build()),
        "virtual_hosts[0].typed_per_filter_config[\"r\"].config must not configure the router filter, which takes no "
            + "override, got \"type.googleapis.com/envoy.extensions.filters.http.router.v3.Router\"");
    assertNack(config(host(route(prefix(""), RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(weight("a", 1).putTypedPerFilterConfig("r", router)))))),
        R0 + ".route.weighted_clusters.clusters[0].typed_per_filter_config[\"r\"] must not configure the router "
            + "filter, which takes no override, got "
            + "\"type.googleapis.com/envoy.extensions.filters.http.router.v3.Router\"");
  }

  @Test
  void faultOverrideMustParse() throws Exception {
    Any good = Any.pack(HTTPFault.getDefaultInstance());
    assertThat(firstRoute(route(prefix(""), cluster("c")).putTypedPerFilterConfig("fault", good)).name())
        .isEqualTo("routes[0]");
    Any bad = Any.newBuilder().setTypeUrl(good.getTypeUrl()).setValue(ByteString.copyFrom(new byte[] {(byte) 0xff}))
        .build();
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(config(host(
        route(prefix(""), cluster("c")).putTypedPerFilterConfig("fault", bad)))))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("RouteConfiguration \"rc\": " + R0 + ".typed_per_filter_config[\"fault\"] must be a "
            + "valid HTTPFault");
  }

  @Test
  void ignorableFieldsAreAccepted() throws Exception {
    Route.Builder r = route(prefix("").setGrpc(RouteMatch.GrpcRouteMatchOptions.getDefaultInstance()),
        RouteAction.newBuilder().setCluster("c").setPrefixRewrite("/x").setHostRewriteLiteral("h"));
    assertThat(firstRoute(r).action()).isEqualTo(new io.jxds.api.model.route.RouteAction.Cluster("c"));
  }

  // helpers

  private static io.jxds.api.model.route.Route firstRoute(Route.Builder route) throws XdsResourceException {
    return RouteConfigurationDecoder.decode(config(host(route))).virtualHosts().get(0).routes().get(0);
  }

  static RouteConfiguration config(VirtualHost... hosts) {
    return RouteConfiguration.newBuilder().setName("rc").addAllVirtualHosts(List.of(hosts)).build();
  }

  static VirtualHost host(Route.Builder... routes) {
    VirtualHost.Builder b = VirtualHost.newBuilder().setName("vh").addDomains("*");
    for (Route.Builder r : routes) {
      b.addRoutes(r);
    }
    return b.build();
  }

  static Route.Builder route(RouteMatch.Builder match, RouteAction.Builder action) {
    return Route.newBuilder().setMatch(match).setRoute(action);
  }

  static RouteMatch.Builder prefix(String prefix) {
    return RouteMatch.newBuilder().setPrefix(prefix);
  }

  static RouteAction.Builder cluster(String name) {
    return RouteAction.newBuilder().setCluster(name);
  }

  private static HeaderMatcher.Builder header(String name) {
    return HeaderMatcher.newBuilder().setName(name);
  }

  private static WeightedCluster.ClusterWeight.Builder weight(String name, int weight) {
    return WeightedCluster.ClusterWeight.newBuilder().setName(name).setWeight(UInt32Value.of(weight));
  }

  private static void assertNack(RouteConfiguration routes, String expected) {
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(routes))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("RouteConfiguration \"" + routes.getName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(routes.getName());
  }
}
