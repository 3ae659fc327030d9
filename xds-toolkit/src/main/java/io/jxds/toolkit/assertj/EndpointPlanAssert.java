package io.jxds.toolkit.assertj;

import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.EndpointPlan;
import io.jxds.toolkit.Fraction;
import org.assertj.core.api.AbstractAssert;

/** Assertions on one endpoint of a {@link ClusterPlan}. */
public final class EndpointPlanAssert extends AbstractAssert<EndpointPlanAssert, EndpointPlan> {
  private final ClusterPlan cluster;

  EndpointPlanAssert(ClusterPlan cluster, EndpointPlan actual) {
    super(actual, EndpointPlanAssert.class);
    this.cluster = cluster;
  }

  /**
   * Checks its share of the cluster's picked RPCs, given as a decimal (within 1e-9).
   *
   * @param share the expected share, e.g. {@code 0.375}
   * @return this
   */
  public EndpointPlanAssert hasShare(double share) {
    return hasShareCloseTo(share, Shares.DECIMAL_TOLERANCE);
  }

  /**
   * Checks its share of the cluster's picked RPCs within a tolerance.
   *
   * @param share the expected share
   * @param tolerance how far off it may be
   * @return this
   */
  public EndpointPlanAssert hasShareCloseTo(double share, double tolerance) {
    isNotNull();
    if (!Shares.matches(actual.share(), share, tolerance)) {
      failWithMessage("Expected endpoint %s of cluster %s to take %s of its RPCs, but it takes %s", actual.address(),
          cluster.name(), share, Shares.show(actual.share()));
    }
    return this;
  }

  /**
   * Checks its share exactly.
   *
   * @param share the expected fraction
   * @return this
   */
  public EndpointPlanAssert hasShare(Fraction share) {
    isNotNull();
    if (!actual.share().equals(share)) {
      failWithMessage("Expected endpoint %s of cluster %s to take %s of its RPCs, but it takes %s", actual.address(),
          cluster.name(), share, Shares.show(actual.share()));
    }
    return this;
  }

  /**
   * Checks that it takes no RPCs (unhealthy, or in a priority that does not serve).
   *
   * @return this
   */
  public EndpointPlanAssert takesNoTraffic() {
    return hasShare(Fraction.ZERO);
  }
}
