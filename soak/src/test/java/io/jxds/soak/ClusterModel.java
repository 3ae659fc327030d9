package io.jxds.soak;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.testing.ClusterBuilder;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * One cluster as the soak's control plane states it: its localities (zone, priority, weight,
 * endpoints) and drop categories. Mutable, changed only by operations on the soak's own thread;
 * {@link #copy()} freezes what a client saw.
 */
final class ClusterModel {
  static final String REGION = "soak";

  final String name;
  boolean deleted;
  /** {@code lb_policy: RING_HASH} (else ROUND_ROBIN): shares are not checked, a hash policy's key sticks. */
  boolean ringHash;
  /**
   * A LOGICAL_DNS cluster (gRFC A37) instead of EDS: its one endpoint's host name ({@code localhost}
   * or {@code 127.0.0.1}, resolved by gRPC's own DNS resolver) and the backend whose port it names;
   * null for an EDS cluster. Its backends are the soak's spare ones, never killed or made sick.
   */
  String dnsHost;
  int dnsBackend;
  /**
   * An aggregate cluster (gRFC A37/A75) instead: the names of its leaves, highest priority first;
   * null for an EDS or LOGICAL_DNS cluster. An aggregate has no localities of its own.
   */
  List<String> leaves;
  final List<Loc> localities = new ArrayList<>();
  /** Parts per million of the two drop categories, 0 for none. */
  int dropA;
  int dropB;

  ClusterModel(String name) {
    this.name = name;
  }

  /** One {@code LocalityLbEndpoints} entry; the same zone may appear at two priorities. */
  static final class Loc {
    final String zone;
    int priority;
    int weight;
    final List<Ep> endpoints = new ArrayList<>();

    Loc(String zone, int priority, int weight) {
      this.zone = zone;
      this.priority = priority;
      this.weight = weight;
    }

    String describe() {
      return zone + "@p" + priority;
    }
  }

  /** One endpoint: a backend (by index), its weight and health. */
  static final class Ep {
    final int backend;
    int weight;
    HealthStatus health;

    Ep(int backend, int weight, HealthStatus health) {
      this.backend = backend;
      this.weight = weight;
      this.health = health;
    }

    /** gRFC A27: only HEALTHY and UNKNOWN endpoints take traffic. */
    boolean usable() {
      return health == HealthStatus.HEALTHY || health == HealthStatus.UNKNOWN;
    }
  }

  String edsName() {
    return name + "-eds";
  }

  ClusterModel copy() {
    ClusterModel c = new ClusterModel(name);
    c.deleted = deleted;
    c.ringHash = ringHash;
    c.dnsHost = dnsHost;
    c.dnsBackend = dnsBackend;
    c.leaves = leaves == null ? null : List.copyOf(leaves);
    c.dropA = dropA;
    c.dropB = dropB;
    for (Loc l : localities) {
      Loc m = new Loc(l.zone, l.priority, l.weight);
      for (Ep e : l.endpoints) {
        m.endpoints.add(new Ep(e.backend, e.weight, e.health));
      }
      c.localities.add(m);
    }
    return c;
  }

  boolean dns() {
    return dnsHost != null;
  }

  boolean aggregate() {
    return leaves != null;
  }

  /** Every backend this cluster lists (usable or not). */
  Set<Integer> backends() {
    Set<Integer> out = new TreeSet<>();
    if (dns()) {
      out.add(dnsBackend);
    }
    for (Loc l : localities) {
      for (Ep e : l.endpoints) {
        out.add(e.backend);
      }
    }
    return out;
  }

  boolean hasZoneAt(String zone, int priority) {
    for (Loc l : localities) {
      if (l.zone.equals(zone) && l.priority == priority) {
        return true;
      }
    }
    return false;
  }

  int priorityCount() {
    int max = -1;
    for (Loc l : localities) {
      max = Math.max(max, l.priority);
    }
    return max + 1;
  }

  /**
   * Renumbers priorities to be contiguous from 0 in their current order (a ClusterLoadAssignment
   * with a gap is NACKed, gRFC A27).
   */
  void compactPriorities() {
    TreeMap<Integer, Integer> renumber = new TreeMap<>();
    for (Loc l : localities) {
      renumber.put(l.priority, 0);
    }
    int next = 0;
    for (var e : renumber.entrySet()) {
      e.setValue(next++);
    }
    for (Loc l : localities) {
      l.priority = renumber.get(l.priority);
    }
  }

  /**
   * Every EDS cluster has outlier detection (gRFC A50), failure percentage only: every {@link
   * #OD_INTERVAL}, an endpoint with at least 3 calls of which more than 80 % failed is ejected for
   * {@link #OD_BASE_EJECTION} (at most {@link #OD_MAX_EJECTION} when ejected again), whatever the
   * number of endpoints (minimum hosts 1, up to all of them): a sick backend is out within three
   * intervals; a healthy one, failing none of its calls, never.
   */
  static final Duration OD_INTERVAL = Duration.ofMillis(500);
  static final Duration OD_BASE_EJECTION = Duration.ofSeconds(4);
  static final Duration OD_MAX_EJECTION = Duration.ofSeconds(5);

  Cluster clusterProto(IntUnaryOperator portOfBackend) {
    if (aggregate()) {
      return XdsResources.cluster(name).aggregate(leaves.toArray(String[]::new)).build();
    }
    if (dns()) {
      return XdsResources.cluster(name).logicalDns(dnsHost, portOfBackend.applyAsInt(dnsBackend)).build();
    }
    ClusterBuilder b = XdsResources.cluster(name).edsServiceName(edsName())
        .failurePercentageEjection(OD_INTERVAL, OD_BASE_EJECTION, 80, 1, 3, 100);
    if (ringHash) {
      b.lbPolicy(Cluster.LbPolicy.RING_HASH);
    }
    b.proto().getOutlierDetectionBuilder().setMaxEjectionTime(com.google.protobuf.Duration.newBuilder()
        .setSeconds(OD_MAX_EJECTION.getSeconds()));
    return b.build();
  }

  ClusterLoadAssignment endpointsProto(IntUnaryOperator portOfBackend) {
    EndpointsBuilder b = XdsResources.endpoints(edsName());
    for (Loc l : localities) {
      b.locality(REGION, l.zone, "", spec -> {
        spec.priority(l.priority).weight(l.weight);
        for (Ep e : l.endpoints) {
          spec.endpoint("127.0.0.1", portOfBackend.applyAsInt(e.backend), e.health, e.weight);
        }
      });
    }
    if (dropA > 0) {
      b.drop("soak-a", dropA, FractionalPercent.DenominatorType.MILLION);
    }
    if (dropB > 0) {
      b.drop("soak-b", dropB, FractionalPercent.DenominatorType.MILLION);
    }
    return b.build();
  }

  /** For traces and failure messages: {@code c2[z1@p0 w2 {b3 w1 H, b7 w2 U}, ...] drop 10%}. */
  String describe() {
    if (deleted) {
      return name + " (deleted)";
    }
    if (dns()) {
      return name + " LOGICAL_DNS " + dnsHost + ":b" + dnsBackend;
    }
    if (aggregate()) {
      return name + " aggregate " + leaves;
    }
    StringBuilder s = new StringBuilder(name).append(ringHash ? " ring-hash" : "").append('[');
    for (int i = 0; i < localities.size(); i++) {
      Loc l = localities.get(i);
      s.append(i == 0 ? "" : ", ").append(l.describe()).append(" w").append(l.weight).append(" {");
      for (int j = 0; j < l.endpoints.size(); j++) {
        Ep e = l.endpoints.get(j);
        s.append(j == 0 ? "" : ", ").append('b').append(e.backend).append(" w").append(e.weight)
            .append(' ').append(e.health.name().charAt(0));
      }
      s.append('}');
    }
    s.append(']');
    if (dropA > 0 || dropB > 0) {
      s.append(" drop ").append(dropA).append('+').append(dropB).append("ppm");
    }
    return s.toString();
  }
}
