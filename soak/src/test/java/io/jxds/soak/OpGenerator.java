package io.jxds.soak;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Chooses the next operation from the seed's random sequence and the model only (never from
 * timing), so that a seed replays the same operations. Every choice is bounded: an operation that
 * does not fit the current state is skipped and another kind is drawn, at most 100 times.
 */
final class OpGenerator {
  static final int MAX_CHANNELS = 9;
  static final int MIN_CHANNELS = 3;

  /** Pseudo-kinds that can be disabled besides the operation kinds. */
  static final String SAME_ZONE_TWO_PRIORITIES = "same-zone-two-priorities";
  static final String OPS_DURING_OUTAGE = "ops-during-outage";

  private final Random random;
  private final SoakModel model;
  private final SoakConfig.Mode mode;
  private final Set<String> disabled;
  /** The rest of an aggregate operation that takes several steps (a leaf's backends killed one by one). */
  private final List<Op> pending = new ArrayList<>();

  OpGenerator(Random random, SoakModel model, SoakConfig.Mode mode, Set<String> disabled) {
    this.random = random;
    this.model = model;
    this.mode = mode;
    this.disabled = disabled;
  }

  /** The kind of an operation, as named in traces and in {@code jxds.soak.skip}. */
  static String kind(Op op) {
    String d = op.describe();
    int space = d.indexOf(' ');
    return space < 0 ? d : d.substring(0, space);
  }

  Op next() {
    if (!model.controlPlaneUp && model.outageOpsLeft <= 0) {
      return new Op.StartControlPlane(random.nextInt(3) == 0);
    }
    while (!pending.isEmpty()) {
      Op op = pending.remove(0);
      if (!(op instanceof Op.KillBackend k) || model.alive[k.backend()]) {
        return op;
      }
    }
    for (int attempt = 0; attempt < 100; attempt++) {
      Op op = draw();
      if (op != null && !disabled.contains(kind(op))) {
        return op;
      }
    }
    throw new IllegalStateException("no operation fits the model after 100 draws");
  }

  private Op draw() {
    boolean outage = !model.controlPlaneUp;
    if (random.nextInt(100) < 12) {
      return aggregateOp();
    }
    // Route changes, about one operation in five (a draw that does not fit the model is redrawn).
    if (random.nextInt(100) < 30) {
      return outage ? null : routeOp();
    }
    int r = random.nextInt(100);
    if (r < 45) {
      return configOp();
    }
    if (r < 52) {
      // With FakeAdsServer also during an outage: the client learns of the deletion from the first
      // response after the restart, or (jxds postpones a deletion seen in a stream's first
      // response) from the next response or the does-not-exist timer.
      return outage && mode == SoakConfig.Mode.JCP ? null : clusterLifecycle();
    }
    if (r < 56) {
      return outage ? null : stopControlPlane();
    }
    if (r < 68) {
      return backendOp();
    }
    if (r < 82) {
      return channelOp();
    }
    if (outage) {
      return null;
    }
    if (r < 86) {
      return new Op.BreakStreams();
    }
    if (r < 89) {
      Op.ConfigOp during = configOp();
      return during == null ? null : new Op.Recycle(1000 + random.nextInt(2001), during);
    }
    if (mode != SoakConfig.Mode.FAKE) {
      return null;
    }
    if (r < 95) {
      Op.ConfigOp during = configOp();
      return during == null ? null : new Op.Hold(300 + random.nextInt(1701), during);
    }
    ClusterModel c = liveCluster();
    return c == null ? null : new Op.BadResource(c.name, random.nextBoolean());
  }

  private Op stopControlPlane() {
    int during = disabled.contains(OPS_DURING_OUTAGE) ? 0 : random.nextInt(3);
    return new Op.StopControlPlane(random.nextInt(5001), during);
  }

  private ClusterModel liveCluster() {
    List<ClusterModel> live = new ArrayList<>();
    for (ClusterModel c : model.clusters) {
      if (!c.deleted && !c.dns() && !c.aggregate()) {
        live.add(c);
      }
    }
    return live.isEmpty() ? null : live.get(random.nextInt(live.size()));
  }

  private Op clusterLifecycle() {
    ClusterModel c = model.clusters.get(random.nextInt(model.clusters.size()));
    if (c.deleted) {
      return new Op.ReaddCluster(c.name);
    }
    int deleted = 0;
    for (ClusterModel m : model.clusters) {
      deleted += m.deleted ? 1 : 0;
    }
    if (deleted >= 2) {
      return null;
    }
    // java-control-plane withholds every CDS response while a watched name is missing from its
    // snapshot, so in JCP mode only a cluster no channel uses is deleted.
    // Nor one that routes name: a channel opened on the listener later would watch it.
    // Nor a leaf of the aggregate, which a channel on the aggregate opened later would watch.
    if (mode == SoakConfig.Mode.JCP && (model.watchers(c.name) > 0 || model.routes.references(c.name)
        || model.isLeaf(c.name))) {
      return null;
    }
    return new Op.DeleteCluster(c.name);
  }

  private Op backendOp() {
    int b = random.nextInt(SoakConfig.BACKENDS); // the LOGICAL_DNS cluster's spare backends stay up
    if (model.alive[b] && random.nextInt(3) == 0) {
      // Longer than the ejection bound (3 intervals + 0.5 s), shorter than the earliest return from
      // an ejection (one interval + the base ejection time): no re-probe while sick.
      return new Op.SickBackend(b, 2500 + random.nextInt(1001));
    }
    if (model.alive[b]) {
      return model.deadBackends() >= SoakConfig.BACKENDS / 4 ? null : new Op.KillBackend(b);
    }
    return new Op.RestartBackend(b);
  }

  private Op channelOp() {
    List<Integer> open = new ArrayList<>(model.channels.keySet());
    int r = random.nextInt(3);
    if (r == 0 && open.size() < MAX_CHANNELS && random.nextInt(3) == 0) {
      if (!model.controlPlaneUp) {
        return null; // a routed channel opens with the control plane up (cached listeners only are not modelled)
      }
      List<RouteModel.ListenerModel> listeners = model.routes.listeners;
      RouteModel.ListenerModel l = listeners.get(random.nextInt(listeners.size()));
      if (l.deleted && mode == SoakConfig.Mode.JCP) {
        return null;
      }
      return new Op.OpenRoutedChannel(model.nextChannelId, l.name, RouteModel.LANES[random.nextInt(2)],
          random.nextInt(3) == 0);
    }
    if (r == 0 && open.size() < MAX_CHANNELS) {
      ClusterModel c = model.clusters.get(random.nextInt(model.clusters.size()));
      if (c.deleted && mode == SoakConfig.Mode.JCP) {
        return null;
      }
      return new Op.OpenChannel(model.nextChannelId, c.name, random.nextInt(3) == 0);
    }
    if (r == 1 && open.size() > MIN_CHANNELS) {
      return new Op.CloseChannel(open.get(random.nextInt(open.size())));
    }
    if (r == 2 && !open.isEmpty()) {
      return new Op.IdleChannel(open.get(random.nextInt(open.size())));
    }
    return null;
  }

  /**
   * A change of one listener or its routes: weights, clusters joining and leaving a route, the lane
   * route's matchers, the listener deleted or restored. A route never names a deleted cluster when
   * the change is made (a cluster routes name may be deleted later, FakeAdsServer mode only).
   */
  private Op routeOp() {
    List<RouteModel.ListenerModel> listeners = model.routes.listeners;
    RouteModel.ListenerModel l = listeners.get(random.nextInt(listeners.size()));
    boolean lane = random.nextBoolean();
    if (random.nextInt(10) < 3) {
      return policyOp(l, lane);
    }
    java.util.Map<String, Integer> current = l.route(lane);
    int kind = random.nextInt(10);
    if (kind < 4) {
      if (current.size() < 2) {
        return null;
      }
      java.util.Map<String, Integer> weights = new java.util.LinkedHashMap<>();
      int sum = 0;
      for (String c : current.keySet()) {
        int w = random.nextInt(5);
        weights.put(c, w);
        sum += w;
      }
      return sum == 0 ? null : new Op.RouteClusters(l.name, lane, weights);
    }
    if (kind < 6) {
      List<String> candidates = new ArrayList<>();
      for (ClusterModel c : model.clusters) {
        if (!c.deleted && !current.containsKey(c.name)) {
          candidates.add(c.name);
        }
      }
      if (current.size() >= 3 || candidates.isEmpty()) {
        return null;
      }
      java.util.Map<String, Integer> weights = new java.util.LinkedHashMap<>(current);
      if (weights.size() == 1) {
        weights.replaceAll((c, w) -> Math.max(w, 1));
      }
      weights.put(candidates.get(random.nextInt(candidates.size())), 1 + random.nextInt(4));
      return new Op.RouteClusters(l.name, lane, weights);
    }
    if (kind < 7) {
      if (current.size() < 2) {
        return null;
      }
      List<String> names = new ArrayList<>(current.keySet());
      java.util.Map<String, Integer> weights = new java.util.LinkedHashMap<>(current);
      weights.remove(names.get(random.nextInt(names.size())));
      if (weights.values().stream().mapToInt(Integer::intValue).sum() == 0) {
        weights.replaceAll((c, w) -> 1);
      }
      return new Op.RouteClusters(l.name, lane, weights);
    }
    if (kind < 9) {
      String prefix = RouteModel.PREFIXES[random.nextInt(3) == 0 ? 1 : 0];
      return new Op.RouteMatcher(l.name, prefix, RouteModel.LANES[random.nextInt(2)], random.nextInt(4) == 0);
    }
    if (l.deleted) {
      return new Op.RestoreListener(l.name);
    }
    // java-control-plane withholds every LDS response while a watched name is missing from its
    // snapshot: as with clusters, only a listener no channel uses is deleted there.
    if (mode == SoakConfig.Mode.JCP && model.channelsOn(l.name) > 0) {
      return null;
    }
    return new Op.DeleteListener(l.name);
  }

  /**
   * A route's timeout, retry policy and hash policy, or the virtual host's retry policy. Timeouts
   * are 4-8 s: those under the RPCs' 5 s deadline shorten it (gRFC A31), the others must not extend
   * it; both are far longer than a soak RPC takes (unless the machine stalls).
   */
  private Op policyOp(RouteModel.ListenerModel l, boolean lane) {
    if (random.nextInt(4) == 0) {
      int[] retries = {0, 2, 3};
      return new Op.SetHostRetries(l.name, retries[random.nextInt(retries.length)]);
    }
    int timeout = random.nextBoolean() ? 0 : 4000 + random.nextInt(4001);
    int retries = random.nextBoolean() ? 0 : 1 + random.nextInt(4);
    return new Op.SetRoutePolicy(l.name, lane, new RoutePolicy(timeout, retries, random.nextBoolean()));
  }

  /**
   * An operation on the aggregate cluster (gRFC A37/A75) or its leaves, judged by {@link
   * SoakModel#expectation}: the first leaf with a live usable endpoint takes its RPCs. Its leaves
   * reordered, one added (never a deleted cluster: java-control-plane withholds CDS while a watched
   * name is missing) or removed; a leaf's endpoints all marked UNHEALTHY (or back to HEALTHY); the
   * live usable endpoints of the leaf serving now killed one by one (at most 8 backends down).
   */
  private Op aggregateOp() {
    ClusterModel agg = model.cluster(SoakModel.AGGREGATE);
    if (agg.deleted) {
      return null;
    }
    List<String> leaves = new ArrayList<>(agg.leaves);
    switch (random.nextInt(5)) {
      case 0: {
        Collections.shuffle(leaves, random);
        return leaves.equals(agg.leaves) ? null : new Op.SetLeaves(agg.name, List.copyOf(leaves));
      }
      case 1: {
        List<String> candidates = new ArrayList<>();
        for (ClusterModel c : model.clusters) {
          if (!c.deleted && !c.aggregate() && !leaves.contains(c.name)) {
            candidates.add(c.name);
          }
        }
        if (leaves.size() >= 4 || candidates.isEmpty()) {
          return null;
        }
        leaves.add(random.nextInt(leaves.size() + 1), candidates.get(random.nextInt(candidates.size())));
        return new Op.SetLeaves(agg.name, List.copyOf(leaves));
      }
      case 2: {
        if (leaves.size() < 2) {
          return null;
        }
        leaves.remove(random.nextInt(leaves.size()));
        return new Op.SetLeaves(agg.name, List.copyOf(leaves));
      }
      case 3: {
        ClusterModel leaf = model.cluster(leaves.get(random.nextInt(leaves.size())));
        if (leaf.deleted || leaf.dns() || leaf.localities.isEmpty()) {
          return null;
        }
        boolean anyUsable = false;
        for (ClusterModel.Loc l : leaf.localities) {
          for (ClusterModel.Ep e : l.endpoints) {
            anyUsable |= e.usable();
          }
        }
        return new Op.SetLeafHealth(leaf.name, anyUsable ? HealthStatus.UNHEALTHY : HealthStatus.HEALTHY);
      }
      default: {
        if (disabled.contains("kill-backend")) {
          return null;
        }
        for (String name : leaves) {
          ClusterModel leaf = model.cluster(name);
          if (Expectation.of(leaf, model.alive).kind() != Expectation.Kind.ROUTE) {
            continue;
          }
          if (leaf.dns()) {
            return null; // its spare backend stays up
          }
          List<Op> kills = new ArrayList<>();
          for (int b : leaf.backends()) {
            boolean usable = false;
            for (ClusterModel.Loc l : leaf.localities) {
              for (ClusterModel.Ep e : l.endpoints) {
                usable |= e.backend == b && e.usable();
              }
            }
            if (usable && model.alive[b]) {
              kills.add(new Op.KillBackend(b));
            }
          }
          if (kills.isEmpty() || model.deadBackends() + kills.size() > SoakConfig.BACKENDS / 4 + 2) {
            return null;
          }
          pending.addAll(kills.subList(1, kills.size()));
          return kills.get(0);
        }
        return null;
      }
    }
  }

  private Op.ConfigOp configOp() {
    ClusterModel dns = model.cluster(SoakModel.DNS_CLUSTER);
    if (random.nextInt(12) == 0) {
      if (dns.deleted) {
        return null;
      }
      String host = random.nextBoolean() ? "localhost" : "127.0.0.1";
      return new Op.SetDnsTarget(dns.name, host, SoakConfig.BACKENDS + random.nextInt(SoakConfig.DNS_BACKENDS));
    }
    ClusterModel c = liveCluster();
    if (c == null) {
      return null;
    }
    int locCount = c.localities.size();
    int loc = random.nextInt(locCount);
    ClusterModel.Loc l = c.localities.get(loc);
    int kind = random.nextInt(11);
    switch (kind) {
      case 10:
        return new Op.SetRingHash(c.name, !c.ringHash);
      case 0: {
        List<Integer> free = freeBackends(c);
        return free.isEmpty() ? null : new Op.AddEndpoint(c.name, loc, free.get(0), 1 + random.nextInt(4));
      }
      case 1:
        return l.endpoints.size() < 2 ? null : new Op.RemoveEndpoint(c.name, loc, random.nextInt(l.endpoints.size()));
      case 2:
        return l.endpoints.isEmpty() ? null
            : new Op.SetEndpointWeight(c.name, loc, random.nextInt(l.endpoints.size()), 1 + random.nextInt(4));
      case 3: {
        if (l.endpoints.isEmpty()) {
          return null;
        }
        HealthStatus[] choices = {HealthStatus.HEALTHY, HealthStatus.HEALTHY, HealthStatus.UNKNOWN,
            HealthStatus.UNHEALTHY, HealthStatus.DRAINING};
        return new Op.SetEndpointHealth(c.name, loc, random.nextInt(l.endpoints.size()),
            choices[random.nextInt(choices.length)]);
      }
      case 4:
        return new Op.SetLocalityWeight(c.name, loc, 1 + random.nextInt(4));
      case 5: {
        int p = c.priorityCount();
        if (p < 2) {
          return null;
        }
        List<Integer> mapping = new ArrayList<>();
        for (int i = 0; i < p; i++) {
          mapping.add(i);
        }
        Collections.shuffle(mapping, random);
        return new Op.RenumberPriorities(c.name, List.copyOf(mapping));
      }
      case 6: {
        int target = random.nextInt(c.priorityCount() + 1);
        if (target == l.priority || c.hasZoneAt(l.zone, target) || !zoneAllowed(c, l.zone, target, l)) {
          return null;
        }
        return new Op.MoveLocality(c.name, loc, target);
      }
      case 7: {
        if (locCount >= 6) {
          return null;
        }
        String zone = SoakModel.ZONES[random.nextInt(SoakModel.ZONES.length)];
        int priority = random.nextInt(c.priorityCount() + 1);
        if (c.hasZoneAt(zone, priority) || !zoneAllowed(c, zone, priority, null)) {
          return null;
        }
        List<Integer> free = freeBackends(c);
        int n = 1 + random.nextInt(2);
        if (free.size() < n) {
          return null;
        }
        return new Op.AddLocality(c.name, zone, priority, 1 + random.nextInt(4), List.copyOf(free.subList(0, n)));
      }
      case 8:
        return locCount < 2 ? null : new Op.RemoveLocality(c.name, loc);
      default: {
        int[] a = {0, 0, 50_000, 200_000};
        int[] b = {0, 0, 100_000};
        return new Op.SetDrops(c.name, a[random.nextInt(a.length)], b[random.nextInt(b.length)]);
      }
    }
  }

  /** Whether {@code zone} may go to {@code priority}, given the same-zone-two-priorities switch. */
  private boolean zoneAllowed(ClusterModel c, String zone, int priority, ClusterModel.Loc moving) {
    if (!disabled.contains(SAME_ZONE_TWO_PRIORITIES)) {
      return true;
    }
    for (ClusterModel.Loc other : c.localities) {
      if (other != moving && other.zone.equals(zone) && other.priority != priority) {
        return false;
      }
    }
    return true;
  }

  /** Backends not yet in the cluster (an address may appear once per assignment), shuffled. */
  private List<Integer> freeBackends(ClusterModel c) {
    List<Integer> free = new ArrayList<>();
    var used = c.backends();
    for (int b = 0; b < SoakConfig.BACKENDS; b++) {
      if (!used.contains(b)) {
        free.add(b);
      }
    }
    Collections.shuffle(free, random);
    return free;
  }
}
