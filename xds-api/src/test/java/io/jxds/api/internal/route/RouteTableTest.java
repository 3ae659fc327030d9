package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Metadata;
import io.jxds.api.model.RegexMatcher;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.HeaderMatcher.PresentMatch;
import io.jxds.api.model.route.HeaderMatcher.RangeMatch;
import io.jxds.api.model.route.HeaderMatcher.StringMatch;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.RuntimeFraction;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Route matching and cluster choice per call (gRFC A28). */
class RouteTableTest {
  private static final RandomGenerator RANDOM = TestRandom.seeded(1);
  private static final String METHOD = "echo.Echo/Say";

  @Test
  void firstMatchingRouteWinsEvenWhenALaterOneIsMoreSpecific() {
    RouteTable table = table(
        route("service", prefix("/echo.Echo/"), "a"),
        route("method", exact("/echo.Echo/Say"), "b"));
    assertThat(matched(table, METHOD, new Metadata())).isEqualTo("service");
  }

  @Test
  void noMatchingRouteIsNull() {
    RouteTable table = table(route("other", prefix("/other.Service/"), "a"));
    assertThat(table.match(METHOD, new Metadata(), RANDOM)).isNull();
  }

  @Test
  void pathIsTheFullMethodNameAfterASlash() {
    assertThat(pathMatches(prefix(""), METHOD)).isTrue();
    assertThat(pathMatches(prefix("/"), METHOD)).isTrue();
    assertThat(pathMatches(prefix("/echo."), METHOD)).isTrue();
    assertThat(pathMatches(prefix("echo."), METHOD)).isFalse();
    assertThat(pathMatches(prefix("/echo.Echo/Say/"), METHOD)).isFalse();
    assertThat(pathMatches(exact("/echo.Echo/Say"), METHOD)).isTrue();
    assertThat(pathMatches(exact("echo.Echo/Say"), METHOD)).isFalse();
    assertThat(pathMatches(exact("/echo.Echo/Sa"), METHOD)).isFalse();
    assertThat(pathMatches(new StringMatcher.SafeRegex(RegexMatcher.compile("/echo\\.Echo/S.*")), METHOD)).isTrue();
    assertThat(pathMatches(new StringMatcher.SafeRegex(RegexMatcher.compile("echo\\.Echo/S.*")), METHOD)).isFalse();
  }

  @Test
  void pathIsCaseSensitiveUnlessTheRouteSaysOtherwise() {
    // case_sensitive unset decodes to ignoreCase false (envoy, gRFC A28); grpc-java ignores case
    assertThat(pathMatches(prefix("/ECHO."), METHOD)).isFalse();
    assertThat(pathMatches(exact("/echo.echo/say"), METHOD)).isFalse();
    assertThat(pathMatches(new StringMatcher.Prefix("/ECHO.", true), METHOD)).isTrue();
    assertThat(pathMatches(new StringMatcher.Exact("/echo.echo/say", true), METHOD)).isTrue();
  }

  @Test
  void inPlacePathMatchingAgreesWithTheMatcherOnTheBuiltPath() {
    List<StringMatcher> matchers = new ArrayList<>();
    for (String p : List.of("", "/", "/e", "/echo.Echo/", "/echo.Echo/Say", "/echo.Echo/SayMore", "e", "/E", "x")) {
      matchers.add(new StringMatcher.Prefix(p, false));
      matchers.add(new StringMatcher.Prefix(p, true));
      matchers.add(new StringMatcher.Exact(p, false));
      matchers.add(new StringMatcher.Exact(p, true));
    }
    for (String method : List.of(METHOD, "", "e", "ECHO.ECHO/SAY", "echo.Echo/Sa")) {
      for (StringMatcher m : matchers) {
        assertThat(new PathMatch(m).matches(method)).as(m + " on " + method).isEqualTo(m.matches("/" + method));
      }
    }
  }

  @Test
  void everyHeaderMatcherMustMatch() {
    RouteTable table = table(new Route("canary", new RouteMatch(prefix(""), List.of(
        HeaderMatcher.of("x-version", new StringMatch(new StringMatcher.Exact("v2", false))),
        HeaderMatcher.of("x-user", new PresentMatch(true))), Optional.empty()), new RouteAction.Cluster("v2")),
        route("default", prefix(""), "v1"));
    assertThat(matched(table, METHOD, headers("x-version", "v2", "x-user", "u"))).isEqualTo("canary");
    assertThat(matched(table, METHOD, headers("x-version", "v2"))).isEqualTo("default");
    assertThat(matched(table, METHOD, headers("x-user", "u"))).isEqualTo("default");
  }

  @Test
  void headerMatcherNameIsCaseInsensitive() {
    RouteTable table = table(headerRoute(HeaderMatcher.of("X-Version", exactValue("v2"))));
    assertThat(matched(table, METHOD, headers("x-version", "v2"))).isEqualTo("header");
  }

  @Test
  void severalValuesAreJoinedWithCommas() {
    RouteTable table = table(headerRoute(HeaderMatcher.of("x-tag", exactValue("a,b"))));
    assertThat(matched(table, METHOD, headers("x-tag", "a", "x-tag", "b"))).isEqualTo("header");
    assertThat(matched(table, METHOD, headers("x-tag", "a"))).isNull();
  }

  @Test
  void binaryHeadersReadAsAbsent() {
    RouteTable present = table(headerRoute(HeaderMatcher.of("x-trace-bin", new PresentMatch(true))));
    RouteTable absent = table(headerRoute(HeaderMatcher.of("x-trace-bin", new PresentMatch(false))));
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-trace-bin", Metadata.BINARY_BYTE_MARSHALLER), new byte[] {1});
    assertThat(matched(present, METHOD, h)).isNull();
    assertThat(matched(absent, METHOD, h)).isEqualTo("header");
  }

  @Test
  void contentTypeReadsApplicationGrpc() {
    RouteTable table = table(headerRoute(HeaderMatcher.of("content-type", exactValue("application/grpc"))));
    assertThat(matched(table, METHOD, new Metadata())).isEqualTo("header");
  }

  @Test
  void pseudoHeadersAndInvalidNamesReadAsAbsent() {
    // istiod turns a VirtualService's authority/method matches into :authority / :method matchers
    RouteTable authority = table(headerRoute(HeaderMatcher.of(":authority", new PresentMatch(false))));
    assertThat(matched(authority, METHOD, new Metadata())).isEqualTo("header");
    RouteTable invalid = table(headerRoute(HeaderMatcher.of("not a header", new PresentMatch(true))));
    assertThat(matched(invalid, METHOD, new Metadata())).isNull();
  }

  @Test
  void rangeEndIsExcluded() {
    // Int64Range is [start, end); grpc-java includes the end
    RouteTable table = table(headerRoute(HeaderMatcher.of("x-n", new RangeMatch(0, 10))));
    assertThat(matched(table, METHOD, headers("x-n", "9"))).isEqualTo("header");
    assertThat(matched(table, METHOD, headers("x-n", "10"))).isNull();
  }

  @Test
  void runtimeFractionZeroNeverMatchesAndWholeAlwaysMatchesWithoutADraw() {
    RandomGenerator noDraw = new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new AssertionError("no draw expected");
      }
    };
    assertThat(matched(table(fractionRoute(new RuntimeFraction(0, 100))), METHOD, new Metadata(), noDraw)).isNull();
    assertThat(matched(table(fractionRoute(new RuntimeFraction(100, 100))), METHOD, new Metadata(), noDraw))
        .isEqualTo("fraction");
    assertThat(matched(table(fractionRoute(new RuntimeFraction(5_000_000, 1_000_000))), METHOD, new Metadata(),
        noDraw)).isEqualTo("fraction");
  }

  @Test
  void runtimeFractionMatchesDrawsBelowItsNumerator() {
    RouteTable table = table(fractionRoute(new RuntimeFraction(25, 100)), route("rest", prefix(""), "b"));
    assertThat(matched(table, METHOD, new Metadata(), TestRandom.fixed(0.24))).isEqualTo("fraction");
    assertThat(matched(table, METHOD, new Metadata(), TestRandom.fixed(0.25))).isEqualTo("rest");
  }

  @Test
  void weightedDrawPicksTheFirstRunningSumAboveIt() {
    RouteEntry entry = weightedEntry(new ClusterWeight("stable", 90), new ClusterWeight("off", 0),
        new ClusterWeight("canary", 10));
    assertThat(entry.totalWeight()).isEqualTo(100);
    assertThat(entry.clusterForDraw(0)).isEqualTo("stable");
    assertThat(entry.clusterForDraw(89)).isEqualTo("stable");
    assertThat(entry.clusterForDraw(90)).isEqualTo("canary");
    assertThat(entry.clusterForDraw(99)).isEqualTo("canary");
    assertThatThrownBy(() -> entry.clusterForDraw(100)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void weightedChoiceFollowsTheWeights() {
    RouteEntry entry = weightedEntry(new ClusterWeight("stable", 90), new ClusterWeight("canary", 10));
    RandomGenerator random = TestRandom.seeded(42);
    Map<String, Integer> counts = new HashMap<>();
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      counts.merge(entry.chooseCluster(random), 1, Integer::sum);
    }
    // binomial(100000, 0.1): sd ~ 95; 5 sd either side
    assertThat(counts.get("canary")).isBetween(10_000 - 475, 10_000 + 475);
    assertThat(counts.get("stable") + counts.get("canary")).isEqualTo(n);
  }

  @Test
  void singleClusterNeedsNoDraw() {
    RouteEntry entry = table(route("r", prefix(""), "only")).entries().get(0);
    assertThat(entry.chooseCluster(TestRandom.fixed(0.5))).isEqualTo("only");
    assertThat(entry.totalWeight()).isEqualTo(1);
  }

  @Test
  void notForwardedRouteStillMatchesButChoosesNoCluster() {
    RouteTable table = table(new Route("redirect", RouteMatch.path(prefix("/echo.")),
        new RouteAction.NotForwarded("redirect")), route("rest", prefix(""), "b"));
    RouteEntry entry = table.match(METHOD, new Metadata(), RANDOM);
    assertThat(entry).isNotNull();
    assertThat(entry.route().name()).isEqualTo("redirect");
    assertThat(entry.chooseCluster(RANDOM)).isNull();
  }

  @Test
  void clusterNamesListEveryClusterOnce() {
    RouteTable table = table(route("a", prefix("/x"), "c1"),
        new Route("w", RouteMatch.path(prefix("")), new RouteAction.WeightedClusters(
            List.of(new ClusterWeight("c2", 1), new ClusterWeight("c1", 1), new ClusterWeight("c3", 0)))),
        new Route("nf", RouteMatch.path(prefix("")), new RouteAction.NotForwarded("redirect")));
    assertThat(table.clusterNames()).containsExactly("c1", "c2", "c3");
  }

  // helpers

  private static RouteTable table(Route... routes) {
    return RouteTable.of(new VirtualHost("vh", List.of("*"), List.of(routes)));
  }

  private static Route route(String name, StringMatcher path, String cluster) {
    return new Route(name, RouteMatch.path(path), new RouteAction.Cluster(cluster));
  }

  private static Route headerRoute(HeaderMatcher header) {
    return new Route("header", new RouteMatch(prefix(""), List.of(header), Optional.empty()),
        new RouteAction.Cluster("c"));
  }

  private static Route fractionRoute(RuntimeFraction fraction) {
    return new Route("fraction", new RouteMatch(prefix(""), List.of(), Optional.of(fraction)),
        new RouteAction.Cluster("c"));
  }

  private static RouteEntry weightedEntry(ClusterWeight... weights) {
    return table(new Route("w", RouteMatch.path(prefix("")), new RouteAction.WeightedClusters(List.of(weights))))
        .entries().get(0);
  }

  private static StringMatcher prefix(String p) {
    return new StringMatcher.Prefix(p, false);
  }

  private static StringMatcher exact(String p) {
    return new StringMatcher.Exact(p, false);
  }

  private static StringMatch exactValue(String v) {
    return new StringMatch(new StringMatcher.Exact(v, false));
  }

  private static boolean pathMatches(StringMatcher path, String method) {
    return table(route("r", path, "c")).match(method, new Metadata(), RANDOM) != null;
  }

  private static @Nullable String matched(RouteTable table, String method, Metadata headers) {
    return matched(table, method, headers, RANDOM);
  }

  private static @Nullable String matched(RouteTable table, String method, Metadata headers, RandomGenerator random) {
    RouteEntry e = table.match(method, headers, random);
    return e == null ? null : e.route().name();
  }

  private static Metadata headers(String... namesAndValues) {
    Metadata m = new Metadata();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put(Metadata.Key.of(namesAndValues[i], Metadata.ASCII_STRING_MARSHALLER), namesAndValues[i + 1]);
    }
    return m;
  }
}
