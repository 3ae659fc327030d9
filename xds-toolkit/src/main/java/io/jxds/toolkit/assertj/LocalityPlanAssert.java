package io.jxds.toolkit.assertj;

import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.LocalityPlan;
import org.assertj.core.api.AbstractAssert;

/** Assertions on one locality of a {@link ClusterPlan}. */
public final class LocalityPlanAssert extends AbstractAssert<LocalityPlanAssert, LocalityPlan> {
  private final ClusterPlan cluster;

  LocalityPlanAssert(ClusterPlan cluster, LocalityPlan actual) {
    super(actual, LocalityPlanAssert.class);
    this.cluster = cluster;
  }

  /**
   * Checks its share of the cluster's picked RPCs, given as a decimal (within 1e-9).
   *
   * @param share the expected share
   * @return this
   */
  public LocalityPlanAssert hasShare(double share) {
    isNotNull();
    if (!Shares.matches(actual.share(), share, Shares.DECIMAL_TOLERANCE)) {
      failWithMessage("Expected locality %s of cluster %s to take %s of its RPCs, but it takes %s", actual.id(),
          cluster.name(), share, Shares.show(actual.share()));
    }
    return this;
  }
}
