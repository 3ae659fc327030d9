package io.jxds.toolkit;

import io.jxds.toolkit.internal.Concurrently;
import io.jxds.toolkit.internal.plan.PlanDiffer;
import java.util.List;

/**
 * What a push changes for traffic: the differences between the plans of two snapshots, cluster by
 * cluster (shares that move and by how much, priority changes, clusters left without usable
 * endpoints), route by route (routes added, removed or changed, weights that move, clusters no
 * route names any more), and the resources a client would NACK after it. What a control plane's CI wants to
 * see before rolling a change out.
 *
 * @param changes every change, cluster by cluster in the after snapshot's order, then removed
 *     clusters, then listeners and routes (and clusters no route names any more), then NACKs
 * @param after the plan after the push
 */
public record PlanDiff(List<Change> changes, TrafficPlan after) {
  /**
   * Copies the list.
   *
   * @param changes the changes
   * @param after the plan after
   */
  public PlanDiff {
    changes = List.copyOf(changes);
  }

  /**
   * The differences between two plans.
   *
   * @param before the plan before the push
   * @param after the plan after it
   * @return the diff
   */
  public static PlanDiff between(TrafficPlan before, TrafficPlan after) {
    return new PlanDiff(PlanDiffer.changes(before, after), after);
  }

  /**
   * The differences between the plans of two snapshots, each planned on a thread of its own.
   *
   * @param before the snapshot before the push
   * @param after the snapshot after it
   * @return the diff
   */
  public static PlanDiff between(Snapshot before, Snapshot after) {
    Concurrently.Both<TrafficPlan, TrafficPlan> plans;
    try {
      plans = Concurrently.both(before::plan, after::plan);
    } catch (BadInputException e) {
      throw new IllegalStateException(e); // planning reads nothing
    }
    return between(plans.first(), plans.second());
  }

  /**
   * The changes to one cluster.
   *
   * @param cluster the cluster's name
   * @return its changes, in order
   */
  public List<Change> cluster(String cluster) {
    return changes.stream().filter(c -> c.cluster().equals(cluster)).toList();
  }

  /**
   * The changes of one kind.
   *
   * @param kind the kind
   * @return those changes, in order
   */
  public List<Change> ofKind(Change.Kind kind) {
    return changes.stream().filter(c -> c.kind() == kind).toList();
  }

  /**
   * Whether the push changes nothing for traffic and is accepted whole.
   *
   * @return true when there is no change
   */
  public boolean isEmpty() {
    return changes.isEmpty();
  }
}
