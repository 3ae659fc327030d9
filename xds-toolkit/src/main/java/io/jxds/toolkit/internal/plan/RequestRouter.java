package io.jxds.toolkit.internal.plan;

import io.grpc.Metadata;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.internal.route.VirtualHostSelector;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RuntimeFraction;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.ListenerPlan;
import io.jxds.toolkit.RequestRoute;
import io.jxds.toolkit.RouteCluster;
import io.jxds.toolkit.RoutePlan;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Routes one request (authority, method path, headers) as an {@code xds:///} channel does, with the
 * client's own engine: {@link VirtualHostSelector} for the authority, {@link RouteTable} for the
 * first route that matches. A route with a {@code runtime_fraction} matches some calls only: each
 * route is asked alone whether it matches when the fraction's draw is lowest and when it is highest,
 * so the outcomes and their probabilities come from the engine too (gRFC A28: a draw uniform in
 * [0, denominator) matches below the numerator). Failures read as the channel's UNAVAILABLE does
 * (without its {@code xds:///target: } prefix).
 */
public final class RequestRouter {
  private static final RandomGenerator LOWEST = new Fixed(false);
  private static final RandomGenerator HIGHEST = new Fixed(true);

  private RequestRouter() {}

  /**
   * Routes a request through {@code listener}.
   *
   * @throws IllegalArgumentException if the path is not {@code /service/method} or a header name is
   *     not one a call can carry
   */
  public static RequestRoute route(
      Optional<ListenerPlan> listener, String listenerName, String authority, String path,
      Map<String, String> headers) {
    String method = method(path);
    Metadata metadata = metadata(headers);
    String where = "listener " + listenerName;
    if (listener.isEmpty()) {
      return failed(listenerName, Optional.empty(), where + " does not exist");
    }
    ListenerPlan plan = listener.get();
    if (plan.routes().isEmpty()) {
      return failed(listenerName, Optional.empty(), plan.detail());
    }
    VirtualHost host = VirtualHostSelector.select(plan.routes().get().virtualHosts(), authority);
    if (host == null) {
      String which = plan.inline() ? "the inline route configuration"
          : "route configuration " + plan.routeConfigurationName();
      return failed(listenerName, Optional.empty(),
          where + ": " + which + " has no virtual host whose domains match authority " + authority);
    }
    where = where + ": virtual host " + host.name();
    List<RequestRoute.Outcome> outcomes = new ArrayList<>();
    Map<String, Fraction> shares = new LinkedHashMap<>();
    Map<String, Long> weights = new LinkedHashMap<>();
    Fraction left = Fraction.ONE;
    for (Route route : host.routes()) {
      Fraction p = matchProbability(host, route, method, metadata);
      if (p.isZero()) {
        continue;
      }
      Fraction taken = left.times(p);
      left = left.minus(taken);
      RouteEntry entry = RouteTable.of(new VirtualHost(host.name(), host.domains(), List.of(route))).entries().get(0);
      RoutePlan routePlan = RoutePlanner.route(entry);
      if (routePlan.notForwarded().isPresent()) {
        outcomes.add(new RequestRoute.Outcome(taken, Optional.of(route.name()), List.of(), Optional.of(where
            + ": route " + route.name() + ": its " + routePlan.notForwarded().get()
            + " action cannot be served by gRPC")));
      } else {
        outcomes.add(new RequestRoute.Outcome(taken, Optional.of(route.name()), routePlan.clusters(),
            Optional.empty()));
        for (RouteCluster c : routePlan.clusters()) {
          shares.merge(c.name(), taken.times(c.share()), Fraction::plus);
          weights.putIfAbsent(c.name(), c.weight());
        }
      }
      if (left.isZero()) {
        break;
      }
    }
    if (!left.isZero()) {
      outcomes.add(new RequestRoute.Outcome(left, Optional.empty(), List.of(),
          Optional.of(where + ": no route matches /" + method)));
    }
    List<RouteCluster> clusters = new ArrayList<>();
    shares.forEach((name, share) -> clusters.add(new RouteCluster(name, weights.get(name), share)));
    return new RequestRoute(listenerName, Optional.of(host.name()), outcomes, clusters);
  }

  /**
   * How likely {@code route} is to match the call when the engine reaches it: 1 when it matches
   * even on the highest draw, its runtime fraction when only a low draw makes it match, else 0.
   */
  private static Fraction matchProbability(VirtualHost host, Route route, String method, Metadata headers) {
    RouteTable alone = RouteTable.of(new VirtualHost(host.name(), host.domains(), List.of(route)));
    if (alone.match(method, headers, HIGHEST) != null) {
      return Fraction.ONE;
    }
    if (alone.match(method, headers, LOWEST) == null) {
      return Fraction.ZERO;
    }
    RuntimeFraction f = route.match().runtimeFraction().orElseThrow();
    return Fraction.of(f.numerator(), f.denominator());
  }

  private static RequestRoute failed(String listener, Optional<String> host, String failure) {
    return new RequestRoute(listener, host,
        List.of(new RequestRoute.Outcome(Fraction.ONE, Optional.empty(), List.of(), Optional.of(failure))), List.of());
  }

  /** {@code /pkg.Service/Method} to the engine's {@code pkg.Service/Method}. */
  private static String method(String path) {
    int slash = path.indexOf('/', 1);
    if (!path.startsWith("/") || slash < 0 || slash == path.length() - 1 || slash == 1) {
      throw new IllegalArgumentException("path must be /service/method (e.g. /pkg.Service/Method), got " + path);
    }
    return path.substring(1);
  }

  private static Metadata metadata(Map<String, String> headers) {
    Metadata m = new Metadata();
    for (Map.Entry<String, String> h : headers.entrySet()) {
      String name = h.getKey().toLowerCase(Locale.ROOT);
      try {
        if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
          m.put(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER), h.getValue().getBytes(StandardCharsets.UTF_8));
        } else {
          m.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), h.getValue());
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("header " + h.getKey() + " cannot be sent by a call: " + e.getMessage(), e);
      }
    }
    return m;
  }

  /**
   * Always draws the lowest value (0: a runtime fraction above 0 matches it) or the highest below
   * the bound (a fraction below the whole does not).
   */
  private static final class Fixed implements RandomGenerator {
    private final boolean highest;

    Fixed(boolean highest) {
      this.highest = highest;
    }

    @Override
    public long nextLong() {
      return highest ? Long.MAX_VALUE : 0;
    }

    @Override
    public long nextLong(long bound) {
      return highest ? bound - 1 : 0;
    }
  }
}
