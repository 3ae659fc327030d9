package io.jxds.toolkit.assertj;

import io.jxds.toolkit.CheckReport;
import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.PlanDiff;
import io.jxds.toolkit.TrafficPlan;

/** The entry point: {@code import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;}. */
public final class ToolkitAssertions {
  private ToolkitAssertions() {}

  /**
   * Assertions on a traffic plan.
   *
   * @param actual the plan
   * @return its assertions
   */
  public static TrafficPlanAssert assertThat(TrafficPlan actual) {
    return new TrafficPlanAssert(actual);
  }

  /**
   * Assertions on one cluster's plan.
   *
   * @param actual the cluster's plan
   * @return its assertions
   */
  public static ClusterPlanAssert assertThat(ClusterPlan actual) {
    return new ClusterPlanAssert(actual);
  }

  /**
   * Assertions on a check.
   *
   * @param actual the check
   * @return its assertions
   */
  public static CheckReportAssert assertThat(CheckReport actual) {
    return new CheckReportAssert(actual);
  }

  /**
   * Assertions on a diff.
   *
   * @param actual the diff
   * @return its assertions
   */
  public static PlanDiffAssert assertThat(PlanDiff actual) {
    return new PlanDiffAssert(actual);
  }
}
