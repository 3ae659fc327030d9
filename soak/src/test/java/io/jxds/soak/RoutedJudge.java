package io.jxds.soak;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a sample of an {@code xds:///} channel's RPCs fits its listener's routes (gRFC A28): the
 * route its RPCs match (the lane route if the path prefix and the header matcher match, else the
 * default one), then a cluster drawn by weight for each RPC, then that cluster's own expectation
 * ({@link Expectation}). A deleted listener fails every RPC with UNAVAILABLE naming it.
 */
final class RoutedJudge {
  /**
   * A backend's share may differ from its expected share by 5 σ of the weighted draws plus this:
   * within a cluster jxds picks by smooth weighted round robin, whose error over a few hundred picks
   * is about a pick per endpoint per picker rebuild.
   */
  static final double PICK_SLACK = 0.03;

  private RoutedJudge() {}

  static String deletedText(RouteModel.ListenerModel l) {
    return "listener " + l.name + " does not exist";
  }

  /** One cluster of the route taken: its share of the RPCs and what it does with them. */
  private record Part(String cluster, double fraction, Expectation exp) {}

  /** Null if the sample fits, else why not. */
  static String judge(SoakModel model, SoakChannel ch, List<RpcResult> results, boolean shares) {
    RouteModel.ListenerModel l = model.routes.listener(ch.cluster);
    if (l.deleted) {
      String text = deletedText(l);
      for (RpcResult r : results) {
        if (r.ok() || r.code() != Status.Code.UNAVAILABLE || !r.description().contains(text)) {
          return "RPC " + r.describe() + ", expected UNAVAILABLE naming the deleted listener (\"" + text + "\")";
        }
      }
      return null;
    }
    boolean lane = l.takesLane(ch.lane);
    Map<String, Integer> weights = l.route(lane);
    long total = weights.values().stream().mapToLong(Integer::longValue).sum();
    List<Part> parts = new ArrayList<>();
    weights.forEach((c, w) -> {
      if (w > 0) {
        parts.add(new Part(c, w / (double) total, model.expectation(c, model.alive)));
      }
    });
    String route = (lane ? "lane" : "default") + " route " + weights + l.policy(lane).describe();
    if (parts.size() == 1) {
      String why = SoakRun.judge(ch, parts.get(0).exp(), results, shares);
      // An aggregate's leaf may change with no change of its own endpoints: not judged for stickiness.
      if (why == null && l.policy(lane).hash() && parts.get(0).exp().ringHash()
          && !model.visible(parts.get(0).cluster()).aggregate()
          && parts.get(0).exp().kind() == Expectation.Kind.ROUTE) {
        why = sticky(model, ch, l, parts.get(0), results);
      }
      return why == null ? null : route + ": " + why;
    }
    Map<Integer, Integer> counts = new HashMap<>();
    for (RpcResult r : results) {
      if (!fits(r, parts)) {
        return route + ": RPC " + r.describe() + ", expected one of " + describe(parts);
      }
      if (r.ok()) {
        counts.merge(r.backend(), 1, Integer::sum);
      }
    }
    if (!shares || parts.stream().anyMatch(p -> p.exp().ringHash())) {
      return null; // a RING_HASH cluster's split depends on the hashes, not on the weights alone
    }
    // Per RPC: cluster c with probability f_c, not dropped with 1 - d_c, then backend b with its
    // share s_c(b) of c. p_b = sum f_c (1 - d_c) s_c(b); the variance of one RPC's contribution is
    // sum f_c (1 - d_c) s_c(b)^2 - p_b^2 (the weighted draw and the drops; round robin inside a
    // cluster is near deterministic).
    Map<Integer, double[]> moments = new HashMap<>();
    for (Part p : parts) {
      if (p.exp().kind() != Expectation.Kind.ROUTE) {
        continue;
      }
      double kept = p.fraction() * (1 - p.exp().dropFraction());
      p.exp().shares().forEach((b, s) -> {
        double[] m = moments.computeIfAbsent(b, k -> new double[2]);
        m[0] += kept * s;
        m[1] += kept * s * s;
      });
    }
    int n = results.size();
    for (var e : moments.entrySet()) {
      double p = e.getValue()[0];
      double variance = Math.max(0, e.getValue()[1] - p * p);
      double bound = 5 * Math.sqrt(variance / n) + PICK_SLACK;
      double observed = counts.getOrDefault(e.getKey(), 0) / (double) n;
      if (Math.abs(observed - p) > bound) {
        return String.format("%s: b%d got %.1f%% of %d RPCs, expected %.1f%% ± %.1f points: %s, counts %s",
            route, e.getKey(), observed * 100, n, p * 100, bound * 100, describe(parts), counts);
      }
    }
    return null;
  }

  /**
   * A hash policy on the user header over one RING_HASH cluster (gRFC A42): the channel's one key
   * lands on one endpoint, and on the same one as before while the cluster's endpoints and their
   * liveness are unchanged (and no backend operation is still settling).
   */
  private static String sticky(SoakModel model, SoakChannel ch, RouteModel.ListenerModel l, Part part,
      List<RpcResult> results) {
    java.util.Set<Integer> hit = new java.util.TreeSet<>();
    for (RpcResult r : results) {
      if (r.ok()) {
        hit.add(r.backend());
      }
    }
    if (hit.size() > 1) {
      return "hash policy on " + RouteModel.USER_HEADER + ": the channel's one key landed on backends " + hit;
    }
    if (hit.isEmpty()) {
      return null;
    }
    int backend = hit.iterator().next();
    model.stickySamples++;
    StringBuilder signature = new StringBuilder(l.describe()).append(' ').append(ch.lane).append(' ')
        .append(model.visible(part.cluster()).describe()).append(" alive");
    for (int b : model.visible(part.cluster()).backends()) {
      signature.append(model.alive[b] ? " b" + b : "");
    }
    String now = signature.toString();
    if (now.equals(ch.stickySignature) && backend != ch.stickyBackend
        && System.nanoTime() > model.stickyUnsettledUntil) {
      return "hash policy on " + RouteModel.USER_HEADER + ": the key moved from b" + ch.stickyBackend + " to b"
          + backend + " while the endpoints did not change";
    }
    ch.stickySignature = now;
    ch.stickyBackend = backend;
    return null;
  }

  private static boolean fits(RpcResult r, List<Part> parts) {
    for (Part p : parts) {
      Expectation exp = p.exp();
      if (r.dropped() && exp.dropFraction() > 0 && !exp.why().equals("deleted")) {
        return true;
      }
      if (exp.kind() == Expectation.Kind.ROUTE && r.ok() && exp.shares().containsKey(r.backend())) {
        return true;
      }
      if (exp.kind() == Expectation.Kind.FAIL && !r.ok() && r.code() == Status.Code.UNAVAILABLE
          && r.description().contains(exp.failText())) {
        return true;
      }
    }
    return false;
  }

  private static String describe(List<Part> parts) {
    StringBuilder s = new StringBuilder();
    for (Part p : parts) {
      s.append(s.length() == 0 ? "" : ", ").append(p.cluster()).append(String.format(" %.0f%% ", p.fraction() * 100))
          .append(p.exp().describe());
    }
    return s.toString();
  }
}
