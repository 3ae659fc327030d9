package io.jxds.toolkit.internal.plan;

import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.LbPolicy;
import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.DropPlan;
import io.jxds.toolkit.Fraction;
import io.jxds.toolkit.PriorityPlan;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.TrafficPlan;
import io.jxds.toolkit.internal.Checker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Plans every cluster of a checked snapshot: the cluster's state as the CDS and EDS layers decide
 * it, and its priorities ({@link PriorityPlanner}, the balancer's own rules).
 */
public final class Planner {
  private Planner() {}

  /** The plan of every cluster, in the snapshot's order. */
  public static TrafficPlan plan(Checker.Checked checked) {
    // Each cluster's plan is a pure function of its cluster and endpoints: planned in parallel, kept in order.
    List<ClusterPlan> plans = new ArrayList<>(checked.clusterVerdicts().values()).parallelStream()
        .map(v -> plan(checked, v)).toList();
    return new TrafficPlan(checked.report(), RoutePlanner.plan(checked), plans);
  }

  private static ClusterPlan plan(Checker.Checked checked, ResourceVerdict v) {
    ClusterUpdate cluster = checked.clusters().get(v.name());
    if (cluster == null) {
      return failed(v.name(), ClusterPlan.State.CLUSTER_NACKED, "cluster " + v.name() + " would be NACKED: "
          + v.nack().orElse(""), "", Optional.empty());
    }
    String eds = cluster.edsServiceName();
    EndpointsUpdate endpoints = checked.endpoints().get(eds);
    ResourceVerdict edsVerdict = checked.endpointVerdicts().get(eds);
    if (endpoints != null) {
      return plan(cluster, endpoints);
    } else if (edsVerdict != null) {
      return failed(v.name(), ClusterPlan.State.ENDPOINTS_NACKED, "cluster " + v.name() + ": endpoints " + eds
          + " would be NACKED: " + edsVerdict.nack().orElse(""), eds, Optional.of(cluster));
    }
    return failed(v.name(), ClusterPlan.State.ENDPOINTS_MISSING, "cluster " + v.name() + ": endpoints " + eds
        + " are not in the snapshot: RPCs wait for them, then fail as not existing", eds, Optional.of(cluster));
  }

  /** A cluster with its assignment. */
  static ClusterPlan plan(ClusterUpdate cluster, EndpointsUpdate endpoints) {
    PriorityPlanner.Planned planned = PriorityPlanner.plan(cluster.lbPolicy(), endpoints);
    boolean serving = planned.serving().isPresent();
    String detail = serving ? "" : "cluster " + cluster.clusterName() + " has no usable endpoints"
        + (endpoints.unweightedLocalities().isEmpty() ? ""
            : ": localities with load_balancing_weight unset or 0 take no traffic: "
                + endpoints.unweightedLocalities());
    return new ClusterPlan(
        cluster.clusterName(),
        serving ? ClusterPlan.State.SERVING : ClusterPlan.State.NO_USABLE_ENDPOINTS,
        detail,
        cluster.edsServiceName(),
        Optional.of(cluster.lbPolicy()),
        serving ? shareBasis(cluster.lbPolicy()) : ClusterPlan.ShareBasis.NONE,
        planned.serving(),
        planned.next(),
        planned.priorities(),
        endpoints.unweightedLocalities(),
        drops(endpoints.dropOverloads()),
        totalDropped(endpoints.dropOverloads()),
        cluster.maxConcurrentRequests(),
        cluster.lrsEnabled(),
        cluster.upstreamTls(),
        ClusterPlan.effective(cluster.outlierDetection()));
  }

  private static ClusterPlan failed(
      String name, ClusterPlan.State state, String detail, String eds, Optional<ClusterUpdate> cluster) {
    return new ClusterPlan(
        name,
        state,
        detail,
        eds,
        cluster.map(ClusterUpdate::lbPolicy),
        ClusterPlan.ShareBasis.NONE,
        OptionalInt.empty(),
        OptionalInt.empty(),
        List.<PriorityPlan>of(),
        List.of(),
        List.of(),
        Fraction.ZERO,
        cluster.map(ClusterUpdate::maxConcurrentRequests).orElse(ClusterUpdate.DEFAULT_MAX_CONCURRENT_REQUESTS),
        cluster.map(ClusterUpdate::lrsEnabled).orElse(false),
        cluster.flatMap(ClusterUpdate::upstreamTls),
        ClusterPlan.effective(cluster.flatMap(ClusterUpdate::outlierDetection)));
  }

  private static ClusterPlan.ShareBasis shareBasis(LbPolicy policy) {
    if (policy instanceof LbPolicy.LeastRequest) {
      return ClusterPlan.ShareBasis.EQUAL_LOAD;
    }
    if (policy instanceof LbPolicy.RingHash || policy instanceof LbPolicy.Maglev) {
      return ClusterPlan.ShareBasis.RANDOM_HASHES;
    }
    return ClusterPlan.ShareBasis.PICK_CYCLE;
  }

  /**
   * Each category's share of all RPCs. The EDS picker ({@code ClusterRequestPicker}) draws each
   * category in order and independently, so category i drops {@code p_i × Π_{j<i}(1 − p_j)}.
   */
  static List<DropPlan> drops(List<DropOverload> overloads) {
    List<DropPlan> plans = new ArrayList<>();
    Fraction passed = Fraction.ONE;
    for (DropOverload d : overloads) {
      Fraction p = Fraction.of(d.partsPerMillion(), DropOverload.MILLION);
      plans.add(new DropPlan(d.category(), d.partsPerMillion(), passed.times(p)));
      passed = passed.times(Fraction.ONE.minus(p));
    }
    return plans;
  }

  static Fraction totalDropped(List<DropOverload> overloads) {
    Fraction passed = Fraction.ONE;
    for (DropOverload d : overloads) {
      passed = passed.times(Fraction.ONE.minus(Fraction.of(d.partsPerMillion(), DropOverload.MILLION)));
    }
    return Fraction.ONE.minus(passed);
  }
}
