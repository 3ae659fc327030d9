package io.jxds.toolkit.internal.plan;

import io.jxds.api.model.LocalityId;
import io.jxds.toolkit.Change;
import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.DropPlan;
import io.jxds.toolkit.EndpointPlan;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.LocalityPlan;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.TrafficPlan;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** Compares two plans cluster by cluster. */
public final class PlanDiffer {
  private PlanDiffer() {}

  /** Every change from {@code before} to {@code after}. */
  public static List<Change> changes(TrafficPlan before, TrafficPlan after) {
    List<Change> changes = new ArrayList<>();
    Map<String, ClusterPlan> old = new LinkedHashMap<>();
    for (ClusterPlan c : before.clusters()) {
      old.put(c.name(), c);
    }
    // A plan names each cluster once; each cluster's changes depend on its two plans alone: compared
    // in parallel, listed in order.
    List<List<Change>> perCluster = after.clusters().parallelStream().map(now -> {
      List<Change> mine = new ArrayList<>();
      ClusterPlan was = old.get(now.name());
      if (was == null) {
        mine.add(new Change(Change.Kind.CLUSTER_ADDED, now.name(), "", "absent", now.state().name(),
            Optional.empty()));
      } else {
        cluster(was, now, mine);
      }
      return mine;
    }).toList();
    perCluster.forEach(changes::addAll);
    for (ClusterPlan now : after.clusters()) {
      old.remove(now.name());
    }
    for (ClusterPlan gone : old.values()) {
      changes.add(new Change(Change.Kind.CLUSTER_REMOVED, gone.name(), "", gone.state().name(), "absent",
          Optional.empty()));
    }
    RouteDiffer.changes(before.listeners(), after.listeners(), changes);
    for (ResourceVerdict v : after.check().nacked()) {
      String subject = v.type() + " \"" + v.name() + "\"";
      Optional<ResourceVerdict> earlier = before.check().resource(v.type(), v.name());
      String was = earlier.isEmpty() ? "absent" : earlier.get().accepted() ? "accepted" : "NACKED";
      changes.add(new Change(Change.Kind.NACK, "", subject, was, "NACKED: " + v.nack().orElse(""), Optional.empty()));
    }
    return changes;
  }

  private static void cluster(ClusterPlan was, ClusterPlan now, List<Change> changes) {
    String name = now.name();
    if (was.state() != now.state()) {
      changes.add(new Change(Change.Kind.STATE, name, "", was.state().name(),
          now.state().name() + (now.detail().isEmpty() ? "" : ": " + now.detail()), Optional.empty()));
    }
    if (!was.servingPriority().equals(now.servingPriority())) {
      changes.add(new Change(Change.Kind.SERVING_PRIORITY, name, "", priority(was), priority(now), Optional.empty()));
    }
    if (!was.lbPolicy().equals(now.lbPolicy())) {
      changes.add(new Change(Change.Kind.LB_POLICY, name, "", String.valueOf(was.lbPolicy().orElse(null)),
          String.valueOf(now.lbPolicy().orElse(null)), Optional.empty()));
    }
    shares(Change.Kind.LOCALITY_SHARE, name, localityShares(was), localityShares(now), changes);
    shares(Change.Kind.ENDPOINT_SHARE, name, endpointShares(was), endpointShares(now), changes);
    shares(Change.Kind.DROP_RATE, name, dropRates(was), dropRates(now), changes);
    if (was.maxConcurrentRequests() != now.maxConcurrentRequests()) {
      changes.add(new Change(Change.Kind.CIRCUIT_BREAKER, name, "max_requests",
          String.valueOf(was.maxConcurrentRequests()), String.valueOf(now.maxConcurrentRequests()), Optional.empty()));
    }
    if (!was.tls().equals(now.tls())) {
      changes.add(new Change(Change.Kind.TLS, name, "", was.tls().map(Object::toString).orElse("plaintext"),
          now.tls().map(Object::toString).orElse("plaintext"), Optional.empty()));
    }
    if (!was.outlierDetection().equals(now.outlierDetection())) {
      changes.add(new Change(Change.Kind.OUTLIER_DETECTION, name, "", OutlierDetectionText.of(was.outlierDetection()),
          OutlierDetectionText.of(now.outlierDetection()), Optional.empty()));
    }
  }

  private static String priority(ClusterPlan c) {
    return c.servingPriority().isPresent() ? String.valueOf(c.servingPriority().getAsInt()) : "none";
  }

  /** A share per key; a key missing on one side is 0 there. */
  static void shares(
      Change.Kind kind, String cluster, Map<String, Fraction> was, Map<String, Fraction> now, List<Change> changes) {
    Set<String> keys = new LinkedHashSet<>(now.keySet());
    keys.addAll(was.keySet());
    // A plan's endpoints of one weight share one Fraction: each is written out once.
    Map<Fraction, String> texts = new IdentityHashMap<>();
    for (String key : keys) {
      Fraction a = was.getOrDefault(key, Fraction.ZERO);
      Fraction b = now.getOrDefault(key, Fraction.ZERO);
      if (!Objects.equals(a, b)) {
        changes.add(new Change(kind, cluster, key, was.containsKey(key) ? texts.computeIfAbsent(a, Fraction::toString)
            : "absent", now.containsKey(key) ? texts.computeIfAbsent(b, Fraction::toString) : "absent",
            Optional.of(b.minus(a))));
      }
    }
  }

  private static Map<String, Fraction> endpointShares(ClusterPlan c) {
    Map<String, Fraction> m = new LinkedHashMap<>();
    for (EndpointPlan e : c.endpoints()) {
      m.merge(e.address(), e.share(), Fraction::plus);
    }
    return m;
  }

  private static Map<String, Fraction> localityShares(ClusterPlan c) {
    Map<String, Fraction> m = new LinkedHashMap<>();
    for (LocalityPlan l : c.localities()) {
      m.merge(name(l.id()), l.share(), Fraction::plus);
    }
    return m;
  }

  private static Map<String, Fraction> dropRates(ClusterPlan c) {
    Map<String, Fraction> m = new LinkedHashMap<>();
    for (DropPlan d : c.drops()) {
      m.merge("drop " + d.category(), d.rate(), Fraction::plus);
    }
    return m;
  }

  /** {@code region/zone/sub_zone}, as the tables print it. */
  public static String name(LocalityId id) {
    return id.region() + "/" + id.zone() + "/" + id.subZone();
  }
}
