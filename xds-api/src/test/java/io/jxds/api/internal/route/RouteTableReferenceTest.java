package io.jxds.api.internal.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.jxds.api.model.RegexMatcher;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.RuntimeFraction;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link RouteTable#match} against the plain reading of gRFC A28 (try each route in order: its
 * path, then every header matcher, then its runtime fraction; the first that matches wins), on
 * random tables and calls: the shortcuts of the table (the route every call takes, a path matcher
 * run once per call, header values read once, runs of exact header values matched by one lookup,
 * routes after one that matches everything never tried) must not change any answer, nor the draws
 * taken.
 */
class RouteTableReferenceTest {
  private static final List<String> METHODS =
      List.of("echo.Echo/Say", "echo.Echo/Other", "other.Svc/Get", "ECHO.ECHO/SAY", "echo.Echo/Say2");
  private static final List<String> NAMES = List.of("x-version", "x-user", "x-tag", "x-trace-bin", "content-type");
  private static final List<String> VALUES = List.of("v1", "v2", "v3", "V1", "", "v1,v2");

  @Test
  void randomTablesMatchAsTheirRoutesReadOneByOne() {
    RandomGenerator gen = TestRandom.seeded(21);
    int exactRuns = 0;
    for (int t = 0; t < 3_000; t++) {
      List<Route> routes = randomRoutes(gen);
      RouteTable table = RouteTable.of(new VirtualHost("vh", List.of("*"), routes));
      for (int c = 0; c < 20; c++) {
        String method = METHODS.get(gen.nextInt(METHODS.size()));
        Metadata headers = randomHeaders(gen);
        long seed = gen.nextLong();
        RandomGenerator tableDraws = TestRandom.seeded(seed);
        RandomGenerator referenceDraws = TestRandom.seeded(seed);
        RouteEntry got = table.match(method, headers, tableDraws);
        Route want = reference(routes, method, headers, referenceDraws);
        assertThat(got == null ? null : got.route()).as("table %s, call %s %s", routes, method, headers)
            .isSameAs(want);
        assertThat(tableDraws.nextLong()).as("the same draws taken").isEqualTo(referenceDraws.nextLong());
      }
      exactRuns += hasExactRun(routes) ? 1 : 0;
    }
    assertThat(exactRuns).as("tables with a run of exact header values").isGreaterThan(300);
  }

  @Test
  void aVirtualHostWithoutRoutesMatchesNoCall() {
    RouteTable table = RouteTable.of(new VirtualHost("vh", List.of("*"), List.of()));
    assertThat(table.routeForEveryCall()).isNull();
    assertThat(table.match("echo.Echo/Say", new Metadata(), TestRandom.seeded(1))).isNull();
  }

  @Test
  void manyDistinctPathMatchersBeyondTheRememberedOnes() {
    List<Route> routes = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      routes.add(route("p" + i, new StringMatcher.Exact("/echo.Echo/M" + i, false), List.of(), Optional.empty()));
    }
    routes.add(route("last", new StringMatcher.Exact("/echo.Echo/M69", false),
        List.of(HeaderMatcher.of("x-user", new HeaderMatcher.PresentMatch(true))), Optional.empty()));
    RouteTable table = RouteTable.of(new VirtualHost("vh", List.of("*"), routes));
    for (int i = 0; i < 70; i++) {
      RouteEntry e = table.match("echo.Echo/M" + i, new Metadata(), TestRandom.seeded(1));
      assertThat(e).isNotNull();
      assertThat(e.route().name()).isEqualTo("p" + i);
    }
    assertThat(table.match("echo.Echo/M70", new Metadata(), TestRandom.seeded(1))).isNull();
  }

  @Test
  void aRouteThatMatchesEveryCallIsTheAnswerWithoutReadingAnything() {
    RouteTable table = RouteTable.of(new VirtualHost("vh", List.of("*"), List.of(
        route("all", new StringMatcher.Prefix("/", false), List.of(), Optional.of(new RuntimeFraction(100, 100))),
        route("never", new StringMatcher.Prefix("", false), List.of(), Optional.empty()))));
    RandomGenerator noDraw = new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new AssertionError("no draw expected");
      }
    };
    RouteEntry e = table.match("any.Service/Method", new Metadata(), noDraw);
    assertThat(e).isNotNull();
    assertThat(e.route().name()).isEqualTo("all");
  }

  /** Some routes, often with runs of exact values on one header, the shape {@link ExactRun} serves. */
  private static List<Route> randomRoutes(RandomGenerator gen) {
    List<Route> routes = new ArrayList<>();
    int n = 1 + gen.nextInt(12);
    while (routes.size() < n) {
      if (gen.nextInt(3) == 0) {
        StringMatcher path = randomPath(gen);
        String name = NAMES.get(gen.nextInt(2));
        for (int k = 2 + gen.nextInt(5); k > 0; k--) {
          HeaderMatcher h = HeaderMatcher.of(name,
              new HeaderMatcher.StringMatch(new StringMatcher.Exact(VALUES.get(gen.nextInt(VALUES.size())), false)));
          routes.add(route("r" + routes.size(), path, List.of(h), Optional.empty()));
        }
      } else {
        List<HeaderMatcher> headers = new ArrayList<>();
        for (int h = gen.nextInt(3); h > 0; h--) {
          headers.add(randomHeader(gen));
        }
        Optional<RuntimeFraction> fraction = switch (gen.nextInt(6)) {
          case 0 -> Optional.of(new RuntimeFraction(50, 100));
          case 1 -> Optional.of(new RuntimeFraction(0, 100));
          case 2 -> Optional.of(new RuntimeFraction(100, 100));
          default -> Optional.empty();
        };
        routes.add(route("r" + routes.size(), randomPath(gen), headers, fraction));
      }
    }
    return routes;
  }

  private static StringMatcher randomPath(RandomGenerator gen) {
    return switch (gen.nextInt(9)) {
      case 0 -> new StringMatcher.Prefix("", false);
      case 1 -> new StringMatcher.Prefix("/", false);
      case 2, 3 -> new StringMatcher.Prefix("/echo.Echo/", false);
      case 4 -> new StringMatcher.Prefix("/echo.echo/", true);
      case 5 -> new StringMatcher.Exact("/echo.Echo/Say", false);
      case 6 -> new StringMatcher.Exact("/other.Svc/Get", gen.nextBoolean());
      case 7 -> new StringMatcher.SafeRegex(RegexMatcher.compile("/echo\\.Echo/S.*"));
      default -> new StringMatcher.Prefix("/other.", false);
    };
  }

  private static HeaderMatcher randomHeader(RandomGenerator gen) {
    String name = NAMES.get(gen.nextInt(NAMES.size()));
    String value = VALUES.get(gen.nextInt(VALUES.size()));
    HeaderMatcher.Match match = switch (gen.nextInt(5)) {
      case 0 -> new HeaderMatcher.PresentMatch(gen.nextBoolean());
      case 1 -> new HeaderMatcher.StringMatch(new StringMatcher.Exact(value, true));
      case 2 -> new HeaderMatcher.StringMatch(new StringMatcher.Prefix(value, false));
      default -> new HeaderMatcher.StringMatch(new StringMatcher.Exact(value, false));
    };
    return new HeaderMatcher(name, match, gen.nextInt(4) == 0, gen.nextInt(4) == 0);
  }

  private static Metadata randomHeaders(RandomGenerator gen) {
    Metadata m = new Metadata();
    for (int h = gen.nextInt(4); h > 0; h--) {
      String name = NAMES.get(gen.nextInt(NAMES.size()));
      if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        m.put(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER), new byte[] {1});
      } else if (!name.equals("content-type")) {
        m.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), VALUES.get(gen.nextInt(VALUES.size())));
      }
    }
    return m;
  }

  private static Route route(String name, StringMatcher path, List<HeaderMatcher> headers,
      Optional<RuntimeFraction> fraction) {
    return new Route(name, new RouteMatch(path, headers, fraction), new RouteAction.Cluster("c-" + name));
  }

  /** gRFC A28 read plainly: each route in order, nothing remembered between routes. */
  private static @Nullable Route reference(List<Route> routes, String method, Metadata headers,
      RandomGenerator random) {
    for (Route r : routes) {
      RouteMatch m = r.match();
      if (!m.path().matches("/" + method)) {
        continue;
      }
      boolean all = true;
      for (HeaderMatcher h : m.headers()) {
        all &= h.matches(HeaderReader.of(h.name()).read(headers));
      }
      if (!all) {
        continue;
      }
      Optional<RuntimeFraction> f = m.runtimeFraction();
      if (f.isEmpty() || f.get().numerator() >= f.get().denominator()
          || (f.get().numerator() != 0 && f.get().matches(random.nextLong(f.get().denominator())))) {
        return r;
      }
    }
    return null;
  }

  private static boolean hasExactRun(List<Route> routes) {
    RouteTable table = RouteTable.of(new VirtualHost("vh", List.of("*"), routes));
    RouteEntry[] entries = table.entries().toArray(new RouteEntry[0]);
    for (int i = 0; i < entries.length; i++) {
      if (ExactRun.startingAt(entries, i) != null) {
        return true;
      }
    }
    return false;
  }
}
