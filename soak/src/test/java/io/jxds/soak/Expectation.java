package io.jxds.soak;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a correct client does with one cluster's config and the backends' liveness: route to the
 * usable (HEALTHY/UNKNOWN) endpoints of the best available priority in proportion to locality
 * weight × endpoint weight, or fail every RPC with UNAVAILABLE naming the cluster.
 *
 * @param kind ROUTE or FAIL
 * @param shares for ROUTE: expected share of the non-dropped RPCs per backend index, summing to 1
 * @param dropFraction expected share of RPCs dropped by the drop categories
 * @param failText for FAIL: text the error description must contain
 * @param why a short reason for reports
 */
record Expectation(Kind kind, Map<Integer, Double> shares, double dropFraction, String failText, String why,
    boolean ringHash) {
  enum Kind { ROUTE, FAIL }

  Expectation(Kind kind, Map<Integer, Double> shares, double dropFraction, String failText, String why) {
    this(kind, shares, dropFraction, failText, why, false);
  }

  /**
   * The best available priority is the lowest-numbered one with a live usable endpoint (gRFC A56:
   * a priority whose connections are all refused reports TRANSIENT_FAILURE and the next one takes
   * over; failback is immediate once a higher one is READY). Inside it, a locality with no live
   * usable endpoint takes no traffic (gRFC A62 sticky TRANSIENT_FAILURE).
   */
  static Expectation of(ClusterModel c, boolean[] alive) {
    if (c.deleted) {
      return new Expectation(Kind.FAIL, Map.of(), 0, "cluster " + c.name + " does not exist", "deleted");
    }
    if (c.dns()) {
      // One endpoint, all the name's addresses (gRFC A37); its backend is a spare one, always up.
      return new Expectation(Kind.ROUTE, Map.of(c.dnsBackend, 1.0), 0, "", "LOGICAL_DNS");
    }
    double drop = 1 - (1 - c.dropA / 1e6) * (1 - c.dropB / 1e6);
    TreeMap<Integer, List<ClusterModel.Loc>> byPriority = new TreeMap<>();
    boolean anyUsable = false;
    for (ClusterModel.Loc l : c.localities) {
      byPriority.computeIfAbsent(l.priority, k -> new java.util.ArrayList<>()).add(l);
      for (ClusterModel.Ep e : l.endpoints) {
        anyUsable |= e.usable();
      }
    }
    if (!anyUsable) {
      return new Expectation(Kind.FAIL, Map.of(), drop, "cluster " + c.name + " has no usable endpoints",
          "no usable endpoint");
    }
    for (var level : byPriority.entrySet()) {
      Map<Integer, Double> shares = new LinkedHashMap<>();
      long localityWeights = 0;
      for (ClusterModel.Loc l : level.getValue()) {
        if (liveWeight(l, alive) > 0) {
          localityWeights += l.weight;
        }
      }
      if (localityWeights == 0) {
        continue;
      }
      for (ClusterModel.Loc l : level.getValue()) {
        long endpointWeights = liveWeight(l, alive);
        if (endpointWeights == 0) {
          continue;
        }
        for (ClusterModel.Ep e : l.endpoints) {
          if (e.usable() && alive[e.backend]) {
            shares.merge(e.backend,
                (double) l.weight / localityWeights * e.weight / endpointWeights, Double::sum);
          }
        }
      }
      // RING_HASH: the same endpoints; which one a call takes depends on its hash, not on the weights alone.
      return new Expectation(Kind.ROUTE, shares, drop, "", "priority " + level.getKey(), c.ringHash);
    }
    // Every usable endpoint is down: all priorities fail; the error names the cluster.
    return new Expectation(Kind.FAIL, Map.of(), drop, "cluster " + c.name, "all usable endpoints down");
  }

  private static long liveWeight(ClusterModel.Loc l, boolean[] alive) {
    long sum = 0;
    for (ClusterModel.Ep e : l.endpoints) {
      if (e.usable() && alive[e.backend]) {
        sum += e.weight;
      }
    }
    return sum;
  }

  String describe() {
    if (kind == Kind.FAIL) {
      return "FAIL(\"" + failText + "\", " + why + ")";
    }
    StringBuilder s = new StringBuilder("ROUTE(").append(why).append(ringHash ? " ring-hash" : "").append(":");
    shares.forEach((b, v) -> s.append(" b").append(b).append('=').append(String.format("%.1f%%", v * 100)));
    if (dropFraction > 0) {
      s.append(String.format(", drop %.1f%%", dropFraction * 100));
    }
    return s.append(')').toString();
  }
}
