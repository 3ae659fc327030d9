package io.jxds.soak;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The soak's deterministic state: clusters as the control plane states them, which backends are
 * up, which channels are open, whether the control plane is up and, while it is down, the config
 * it last served. Changed only by {@link #apply(Op)}, so the same seed gives the same sequence.
 */
final class SoakModel {
  static final String[] ZONES = {"z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7"};

  final List<ClusterModel> clusters = new ArrayList<>();
  /** The listeners of the {@code xds:///} channels and their routes. */
  final RouteModel routes = new RouteModel();
  final boolean[] alive;
  /** Open channels: id to cluster name (or listener name, for {@code xds:///} channels), in opening order. */
  final Map<Integer, String> channels = new LinkedHashMap<>();
  int nextChannelId;
  boolean controlPlaneUp = true;
  int outageOpsLeft;
  /** While the control plane is down: what it served before, by cluster name; else null. */
  Map<String, ClusterModel> served;
  /**
   * What the client last converged on for each cluster while a channel watched it. A cluster
   * nobody watches leaves the wire, and the client's retained copy stays as it was then: that copy,
   * not the control plane's newer config, is what a channel opened on it during an outage sees.
   */
  final Map<String, ClusterModel> lastSeen = new HashMap<>();
  /**
   * Until then (System.nanoTime, set by the runner, not part of the seeded state) a hash key may move
   * without a change of endpoints: a backend was killed, restarted or sick, and its connection or
   * ejection settles after the operation converged.
   */
  long stickyUnsettledUntil;
  /** For the report: samples judged by the hash-key invariant, and channels a kill's retry invariant covered. */
  int stickySamples;
  int retryGuards;

  /** The LOGICAL_DNS cluster, after the EDS ones. */
  static final String DNS_CLUSTER = "dns0";
  /** The aggregate cluster (gRFC A37/A75), after the LOGICAL_DNS one; its leaves are other clusters. */
  static final String AGGREGATE = "agg0";

  /**
   * @param backendCount the backends EDS clusters list (killed, restarted, made sick); {@link
   *     SoakConfig#DNS_BACKENDS} more after them serve the LOGICAL_DNS cluster only
   */
  SoakModel(int clusterCount, int backendCount, Random random) {
    alive = new boolean[backendCount + SoakConfig.DNS_BACKENDS];
    java.util.Arrays.fill(alive, true);
    for (int i = 0; i < clusterCount; i++) {
      ClusterModel c = new ClusterModel("c" + i);
      List<Integer> pool = new ArrayList<>();
      for (int b = 0; b < backendCount; b++) {
        pool.add(b);
      }
      java.util.Collections.shuffle(pool, random);
      int next = 0;
      String[] zones = {ZONES[i % ZONES.length], ZONES[(i + 1) % ZONES.length], ZONES[(i + 2) % ZONES.length]};
      int[] priorities = {0, 0, 1};
      for (int l = 0; l < 3; l++) {
        ClusterModel.Loc loc = new ClusterModel.Loc(zones[l], priorities[l], 1 + random.nextInt(3));
        for (int e = 0; e < 2; e++) {
          loc.endpoints.add(new ClusterModel.Ep(pool.get(next++), 1 + random.nextInt(3), HealthStatus.HEALTHY));
        }
        c.localities.add(loc);
      }
      clusters.add(c);
    }
    clusters.get(clusterCount - 1).ringHash = true;
    ClusterModel dns = new ClusterModel(DNS_CLUSTER);
    dns.dnsHost = "127.0.0.1";
    dns.dnsBackend = backendCount;
    clusters.add(dns);
    ClusterModel aggregate = new ClusterModel(AGGREGATE);
    aggregate.leaves = List.of("c1", "c2");
    clusters.add(aggregate);
  }

  /**
   * What a correct client does with the cluster's visible config. An aggregate's RPCs go to the
   * first leaf with a live usable endpoint, as that leaf's own config says (gRFC A75: each leaf
   * keeps its policy and drops); a leaf that does not exist fails and the next one serves. With no
   * such leaf every RPC fails UNAVAILABLE naming a cluster.
   */
  Expectation expectation(String name, boolean[] liveness) {
    ClusterModel c = visible(name);
    if (c.deleted || !c.aggregate()) {
      return Expectation.of(c, liveness);
    }
    for (String leaf : c.leaves) {
      Expectation e = Expectation.of(visible(leaf), liveness);
      if (e.kind() == Expectation.Kind.ROUTE) {
        return new Expectation(e.kind(), e.shares(), e.dropFraction(), "", "leaf " + leaf + " " + e.why(),
            e.ringHash());
      }
    }
    return new Expectation(Expectation.Kind.FAIL, Map.of(), 0, "cluster ", "no leaf of " + name + " " + c.leaves
        + " has a live usable endpoint");
  }

  /** The cluster and, for an aggregate, its leaves as the control plane states them now. */
  java.util.Set<String> expand(String name) {
    java.util.Set<String> out = new java.util.LinkedHashSet<>();
    out.add(name);
    ClusterModel c = cluster(name);
    if (c.aggregate() && !c.deleted) {
      out.addAll(c.leaves);
    }
    return out;
  }

  /** Whether a live aggregate lists {@code cluster} as a leaf. */
  boolean isLeaf(String cluster) {
    for (ClusterModel c : clusters) {
      if (c.aggregate() && !c.deleted && c.leaves.contains(cluster)) {
        return true;
      }
    }
    return false;
  }

  ClusterModel cluster(String name) {
    for (ClusterModel c : clusters) {
      if (c.name.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no cluster " + name);
  }

  /** The config a client can know: what the control plane served last while it is down. */
  ClusterModel visible(String name) {
    return served != null ? served.get(name) : cluster(name);
  }

  int channelsOn(String cluster) {
    int n = 0;
    for (String c : channels.values()) {
      n += c.equals(cluster) ? 1 : 0;
    }
    return n;
  }

  /**
   * Channels that make the client watch {@code cluster}: those on {@code xds-cluster:///cluster},
   * and those on a listener (not deleted) whose routes name it.
   */
  int watchers(String cluster) {
    int n = 0;
    for (String target : channels.values()) {
      if (target.equals(cluster)) {
        n++;
      } else if (routes.isListener(target)) {
        RouteModel.ListenerModel l = routes.listener(target);
        boolean named = false;
        for (String routed : l.deleted ? java.util.Set.<String>of() : l.clusters()) {
          named |= expand(routed).contains(cluster);
        }
        n += named ? 1 : 0;
      } else {
        n += expand(target).contains(cluster) ? 1 : 0; // a leaf of an aggregate channel's cluster
      }
    }
    return n;
  }

  int deadBackends() {
    int n = 0;
    for (boolean a : alive) {
      n += a ? 0 : 1;
    }
    return n;
  }

  /** Applies an operation to the model (the runner applies it to the world). */
  void apply(Op op) {
    if (op instanceof Op.ConfigOp c) {
      c.apply(cluster(c.cluster()));
    } else if (op instanceof Op.RouteOp r) {
      r.apply(routes.listener(r.listener()));
    } else if (op instanceof Op.OpenRoutedChannel o) {
      channels.put(o.channel(), o.listener());
      nextChannelId = Math.max(nextChannelId, o.channel() + 1);
    } else if (op instanceof Op.Recycle r) {
      apply(r.during());
    } else if (op instanceof Op.Hold h) {
      apply(h.during());
    } else if (op instanceof Op.StopControlPlane s) {
      controlPlaneUp = false;
      outageOpsLeft = s.opsDuring();
      served = new LinkedHashMap<>();
      for (ClusterModel c : clusters) {
        ClusterModel retained = lastSeen.get(c.name);
        served.put(c.name, watchers(c.name) == 0 && retained != null ? retained : c.copy());
      }
    } else if (op instanceof Op.StartControlPlane) {
      controlPlaneUp = true;
      served = null;
    } else if (op instanceof Op.KillBackend k) {
      alive[k.backend()] = false;
    } else if (op instanceof Op.RestartBackend r) {
      alive[r.backend()] = true;
    } else if (op instanceof Op.OpenChannel o) {
      channels.put(o.channel(), o.cluster());
      nextChannelId = Math.max(nextChannelId, o.channel() + 1);
    } else if (op instanceof Op.CloseChannel c) {
      channels.remove(c.channel());
    }
    if (!controlPlaneUp && !(op instanceof Op.StopControlPlane)) {
      outageOpsLeft--;
    }
  }
}
