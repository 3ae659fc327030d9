package io.jxds.toolkit.internal.plan;

import io.jxds.toolkit.Change;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.ListenerPlan;
import io.jxds.toolkit.RouteCluster;
import io.jxds.toolkit.RoutePlan;
import io.jxds.toolkit.VirtualHostPlan;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compares the listeners and route tables of two plans: listeners that come, go or change state,
 * routes (by listener, virtual host and name) added, removed or changed, clusters' shares of a
 * route's calls, and clusters that no route names any more.
 */
final class RouteDiffer {
  private RouteDiffer() {}

  /** A route where it stands: its position in its virtual host and its plan. */
  private record Placed(int position, RoutePlan route) {}

  static void changes(List<ListenerPlan> before, List<ListenerPlan> after, List<Change> changes) {
    Map<String, ListenerPlan> old = new LinkedHashMap<>();
    before.forEach(l -> old.put(l.name(), l));
    for (ListenerPlan now : after) {
      ListenerPlan was = old.remove(now.name());
      String subject = "listener " + now.name();
      if (was == null) {
        changes.add(new Change(Change.Kind.LISTENER_ADDED, "", subject, "absent", now.state().name(),
            Optional.empty()));
      } else if (was.state() != now.state()) {
        changes.add(new Change(Change.Kind.LISTENER_STATE, "", subject, was.state().name(),
            now.state().name() + (now.detail().isEmpty() ? "" : ": " + now.detail()), Optional.empty()));
      }
    }
    for (ListenerPlan gone : old.values()) {
      changes.add(new Change(Change.Kind.LISTENER_REMOVED, "", "listener " + gone.name(), gone.state().name(),
          "absent", Optional.empty()));
    }
    Map<String, Placed> was = routes(before);
    Map<String, Placed> now = routes(after);
    for (Map.Entry<String, Placed> e : now.entrySet()) {
      Placed p = was.get(e.getKey());
      String subject = "route " + e.getKey();
      if (p == null) {
        changes.add(new Change(Change.Kind.ROUTE_ADDED, "", subject, "absent", text(e.getValue()), Optional.empty()));
        continue;
      }
      if (p.position() != e.getValue().position() || !p.route().match().equals(e.getValue().route().match())
          || !p.route().notForwarded().equals(e.getValue().route().notForwarded())) {
        changes.add(new Change(Change.Kind.ROUTE_CHANGED, "", subject, text(p), text(e.getValue()),
            Optional.empty()));
      }
      for (String cluster : union(shares(p.route()).keySet(), shares(e.getValue().route()).keySet())) {
        Map<String, Fraction> a = shares(p.route());
        Map<String, Fraction> b = shares(e.getValue().route());
        PlanDiffer.shares(Change.Kind.ROUTE_SHARE, cluster, only(a, cluster, subject), only(b, cluster, subject),
            changes);
      }
    }
    for (Map.Entry<String, Placed> e : was.entrySet()) {
      if (!now.containsKey(e.getKey())) {
        changes.add(new Change(Change.Kind.ROUTE_REMOVED, "", "route " + e.getKey(), text(e.getValue()), "absent",
            Optional.empty()));
      }
    }
    Set<String> routedAfter = routedClusters(now);
    for (String cluster : routedClusters(was)) {
      if (!routedAfter.contains(cluster)) {
        changes.add(new Change(Change.Kind.CLUSTER_UNROUTED, cluster, "", "routed", "no route names it",
            Optional.empty()));
      }
    }
  }

  /** Every route of every routing listener, by {@code listener/virtual host/route}. */
  private static Map<String, Placed> routes(List<ListenerPlan> listeners) {
    Map<String, Placed> routes = new LinkedHashMap<>();
    for (ListenerPlan l : listeners) {
      for (VirtualHostPlan h : l.virtualHosts()) {
        for (int i = 0; i < h.routes().size(); i++) {
          routes.putIfAbsent(l.name() + "/" + h.name() + "/" + h.routes().get(i).name(),
              new Placed(i, h.routes().get(i)));
        }
      }
    }
    return routes;
  }

  private static Set<String> routedClusters(Map<String, Placed> routes) {
    Set<String> names = new LinkedHashSet<>();
    for (Placed p : routes.values()) {
      p.route().clusters().forEach(c -> names.add(c.name()));
    }
    return names;
  }

  /** {@code #1 prefix "/d.D/" -> b}, {@code -> a 9/10, b 1/10}, {@code -> redirect (not forwarded)}. */
  static String text(Placed p) {
    RoutePlan r = p.route();
    StringBuilder s = new StringBuilder("#").append(p.position()).append(' ').append(r.match()).append(" -> ");
    if (r.notForwarded().isPresent()) {
      return s.append(r.notForwarded().get()).append(" (not forwarded)").toString();
    }
    if (r.clusters().size() == 1) {
      return s.append(r.clusters().get(0).name()).toString();
    }
    for (int i = 0; i < r.clusters().size(); i++) {
      RouteCluster c = r.clusters().get(i);
      s.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(c.share());
    }
    return s.toString();
  }

  private static Map<String, Fraction> shares(RoutePlan r) {
    Map<String, Fraction> m = new LinkedHashMap<>();
    r.clusters().forEach(c -> m.put(c.name(), c.share()));
    return m;
  }

  /** The one share of {@code cluster}, keyed by the route's subject, for {@link PlanDiffer#shares}. */
  private static Map<String, Fraction> only(Map<String, Fraction> shares, String cluster, String subject) {
    Fraction f = shares.get(cluster);
    return f == null ? Map.of() : Map.of(subject, f);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new LinkedHashSet<>(a);
    all.addAll(b);
    return all;
  }
}
