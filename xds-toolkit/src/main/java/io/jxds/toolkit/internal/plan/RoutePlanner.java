package io.jxds.toolkit.internal.plan;

import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.ListenerPlan;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.RouteCluster;
import io.jxds.toolkit.RoutePlan;
import io.jxds.toolkit.VirtualHostPlan;
import io.jxds.toolkit.internal.Checker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans every listener of a checked snapshot: the route configuration an {@code xds:///} channel on
 * it uses (inline, or the RDS resource it names; ARCHITECTURE.md, "Routing each call") and each
 * virtual host's ordered route table, as the route-matching engine ({@link RouteTable}) holds it.
 */
public final class RoutePlanner {
  private RoutePlanner() {}

  /** The plan of every listener, in the snapshot's order. */
  public static List<ListenerPlan> plan(Checker.Checked checked) {
    List<ListenerPlan> plans = new ArrayList<>();
    for (ResourceVerdict v : checked.listenerVerdicts().values()) {
      ListenerUpdate listener = checked.listeners().get(v.name());
      String where = "listener " + v.name();
      if (listener == null) {
        plans.add(new ListenerPlan(v.name(), ListenerPlan.State.LISTENER_NACKED,
            where + " would be NACKED: " + v.nack().orElse(""), "", Optional.empty(), List.of()));
        continue;
      }
      if (listener.inlineRouteConfiguration().isPresent()) {
        plans.add(routing(v.name(), "", listener.inlineRouteConfiguration().get()));
        continue;
      }
      String rds = listener.rdsName().orElseThrow();
      RouteConfigurationUpdate routes = checked.routes().get(rds);
      ResourceVerdict rdsVerdict = checked.routeVerdicts().get(rds);
      if (routes != null) {
        plans.add(routing(v.name(), rds, routes));
      } else if (rdsVerdict != null) {
        plans.add(new ListenerPlan(v.name(), ListenerPlan.State.ROUTES_NACKED, where + ": route configuration "
            + rds + " would be NACKED: " + rdsVerdict.nack().orElse(""), rds, Optional.empty(), List.of()));
      } else {
        plans.add(new ListenerPlan(v.name(), ListenerPlan.State.ROUTES_MISSING, where + ": route configuration "
            + rds + " is not in the snapshot: calls wait for it, then fail as not existing", rds, Optional.empty(),
            List.of()));
      }
    }
    return plans;
  }

  private static ListenerPlan routing(String name, String rds, RouteConfigurationUpdate routes) {
    List<VirtualHostPlan> hosts = new ArrayList<>();
    for (VirtualHost host : routes.virtualHosts()) {
      hosts.add(virtualHost(host));
    }
    return new ListenerPlan(name, ListenerPlan.State.ROUTING, "", rds, Optional.of(routes), hosts);
  }

  static VirtualHostPlan virtualHost(VirtualHost host) {
    List<RoutePlan> routes = new ArrayList<>();
    for (RouteEntry entry : RouteTable.of(host).entries()) {
      routes.add(route(entry));
    }
    return new VirtualHostPlan(host.name(), host.domains(), routes);
  }

  /** A route of the engine's table: its match as text, its clusters with their shares of its calls. */
  static RoutePlan route(RouteEntry entry) {
    Route route = entry.route();
    RouteAction action = route.action();
    if (action instanceof RouteAction.NotForwarded n) {
      return new RoutePlan(route.name(), match(route.match()), List.of(), Optional.of(n.field()));
    }
    // gRFC A28: one draw in [0, total) per call, so a cluster's share is its weight over the total.
    long total = entry.totalWeight();
    Map<String, Long> weights = new LinkedHashMap<>();
    if (action instanceof RouteAction.WeightedClusters w) {
      w.clusters().forEach(c -> weights.merge(c.name(), c.weight(), Long::sum));
    } else {
      weights.put(((RouteAction.Cluster) action).name(), 1L);
    }
    List<RouteCluster> clusters = new ArrayList<>();
    weights.forEach((cluster, weight) -> clusters.add(new RouteCluster(cluster, weight, Fraction.of(weight, total))));
    return new RoutePlan(route.name(), match(route.match()), clusters, Optional.empty());
  }

  /** {@code prefix "/pkg.S/" && header x-version exact "v2" && runtime_fraction 10/100}. */
  static String match(RouteMatch match) {
    StringBuilder s = new StringBuilder(path(match.path()));
    for (HeaderMatcher h : match.headers()) {
      s.append(" && header ").append(h.name()).append(h.invert() ? " not " : " ").append(header(h.match()));
      if (h.treatMissingAsEmpty()) {
        s.append(" (missing as \"\")");
      }
    }
    match.runtimeFraction().ifPresent(f -> s.append(" && runtime_fraction ").append(f.numerator()).append('/')
        .append(f.denominator()));
    return s.toString();
  }

  private static String path(StringMatcher m) {
    if (m instanceof StringMatcher.Prefix p) {
      return "prefix \"" + p.value() + "\"" + (p.ignoreCase() ? " (any case)" : "");
    }
    if (m instanceof StringMatcher.Exact e) {
      return "path \"" + e.value() + "\"" + (e.ignoreCase() ? " (any case)" : "");
    }
    return string(m);
  }

  private static String header(HeaderMatcher.Match m) {
    if (m instanceof HeaderMatcher.StringMatch s) {
      return string(s.matcher());
    }
    if (m instanceof HeaderMatcher.RangeMatch r) {
      return "range [" + r.start() + ", " + r.end() + ")";
    }
    return ((HeaderMatcher.PresentMatch) m).present() ? "present" : "absent";
  }

  private static String string(StringMatcher m) {
    if (m instanceof StringMatcher.Exact e) {
      return "exact \"" + e.value() + "\"" + (e.ignoreCase() ? " (any case)" : "");
    }
    if (m instanceof StringMatcher.Prefix p) {
      return "prefix \"" + p.value() + "\"" + (p.ignoreCase() ? " (any case)" : "");
    }
    if (m instanceof StringMatcher.Suffix x) {
      return "suffix \"" + x.value() + "\"" + (x.ignoreCase() ? " (any case)" : "");
    }
    if (m instanceof StringMatcher.Contains c) {
      return "contains \"" + c.value() + "\"" + (c.ignoreCase() ? " (any case)" : "");
    }
    return "safe_regex \"" + ((StringMatcher.SafeRegex) m).regex().regex() + "\"";
  }
}
