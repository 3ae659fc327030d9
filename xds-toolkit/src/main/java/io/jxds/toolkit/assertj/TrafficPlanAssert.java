package io.jxds.toolkit.assertj;

import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.TrafficPlan;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link TrafficPlan}. */
public final class TrafficPlanAssert extends AbstractAssert<TrafficPlanAssert, TrafficPlan> {
  TrafficPlanAssert(TrafficPlan actual) {
    super(actual, TrafficPlanAssert.class);
  }

  /**
   * Goes to a cluster's plan; fails if the plan has no such cluster.
   *
   * @param name the cluster's name
   * @return the cluster's assertions
   */
  public ClusterPlanAssert cluster(String name) {
    isNotNull();
    ClusterPlan cluster = actual.cluster(name).orElse(null);
    if (cluster == null) {
      failWithMessage("Expected a cluster named %s, but the plan has %s", name,
          actual.clusters().stream().map(ClusterPlan::name).toList());
    }
    return new ClusterPlanAssert(cluster);
  }

  /**
   * Checks that a client would NACK nothing.
   *
   * @return this
   */
  public TrafficPlanAssert hasNoNacks() {
    new CheckReportAssert(actual.check()).hasNoNacks();
    return this;
  }
}
