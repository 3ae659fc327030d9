package io.jxds.toolkit.assertj;

import io.jxds.api.model.OutlierDetection;
import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.EndpointPlan;
import io.jxds.toolkit.LocalityPlan;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link ClusterPlan}. */
public final class ClusterPlanAssert extends AbstractAssert<ClusterPlanAssert, ClusterPlan> {
  ClusterPlanAssert(ClusterPlan actual) {
    super(actual, ClusterPlanAssert.class);
  }

  /**
   * Checks that a priority serves.
   *
   * @return this
   */
  public ClusterPlanAssert isServing() {
    return hasState(ClusterPlan.State.SERVING);
  }

  /**
   * Checks the cluster's state.
   *
   * @param state the expected state
   * @return this
   */
  public ClusterPlanAssert hasState(ClusterPlan.State state) {
    isNotNull();
    if (actual.state() != state) {
      failWithMessage("Expected cluster %s to be %s, but it is %s%s", actual.name(), state, actual.state(),
          actual.detail().isEmpty() ? "" : ": " + actual.detail());
    }
    return this;
  }

  /**
   * Checks which priority serves.
   *
   * @param priority the priority, as the assignment numbers it
   * @return this
   */
  public ClusterPlanAssert servesFromPriority(int priority) {
    isNotNull();
    if (actual.servingPriority().isEmpty() || actual.servingPriority().getAsInt() != priority) {
      failWithMessage("Expected cluster %s to serve from priority %s, but it serves from %s", actual.name(), priority,
          actual.servingPriority().isEmpty() ? "none (" + actual.state() + ")" : actual.servingPriority().getAsInt());
    }
    return this;
  }

  /**
   * Checks the share of all RPCs that drops remove, every category together.
   *
   * @param share the expected share, in [0, 1]
   * @return this
   */
  public ClusterPlanAssert dropsInAll(double share) {
    isNotNull();
    if (!Shares.matches(actual.dropped(), share, Shares.DECIMAL_TOLERANCE)) {
      failWithMessage("Expected cluster %s to drop %s of RPCs, but it drops %s", actual.name(), share,
          Shares.show(actual.dropped()));
    }
    return this;
  }

  /**
   * Checks the circuit breaker's limit.
   *
   * @param limit the expected {@code max_requests}
   * @return this
   */
  public ClusterPlanAssert hasMaxConcurrentRequests(long limit) {
    isNotNull();
    if (actual.maxConcurrentRequests() != limit) {
      failWithMessage("Expected cluster %s to allow %s concurrent requests, but it allows %s", actual.name(), limit,
          actual.maxConcurrentRequests());
    }
    return this;
  }

  /**
   * Checks the outlier detection the cluster's balancer runs (gRFC A50), defaults filled in.
   *
   * @param expected the expected settings, e.g. {@code OutlierDetection.defaults()}
   * @return this
   */
  public ClusterPlanAssert hasOutlierDetection(OutlierDetection expected) {
    isNotNull();
    if (actual.outlierDetection().isEmpty()) {
      failWithMessage("Expected cluster %s to run outlier detection %s, but it is off", actual.name(), expected);
    } else if (!actual.outlierDetection().get().equals(expected)) {
      failWithMessage("Expected cluster %s to run outlier detection %s, but it runs %s", actual.name(), expected,
          actual.outlierDetection().get());
    }
    return this;
  }

  /**
   * Checks that the cluster's balancer ejects no endpoint as an outlier: {@code outlier_detection}
   * is unset or enforces neither algorithm.
   *
   * @return this
   */
  public ClusterPlanAssert hasOutlierDetectionOff() {
    isNotNull();
    if (actual.outlierDetection().isPresent()) {
      failWithMessage("Expected cluster %s to run no outlier detection, but it runs %s", actual.name(),
          actual.outlierDetection().get());
    }
    return this;
  }

  /**
   * Goes to an endpoint; fails if the cluster has none at that address.
   *
   * @param address {@code ip:port}
   * @return the endpoint's assertions
   */
  public EndpointPlanAssert endpoint(String address) {
    isNotNull();
    EndpointPlan endpoint = actual.endpoint(address).orElse(null);
    if (endpoint == null) {
      failWithMessage("Expected cluster %s to have an endpoint %s, but it has %s", actual.name(), address,
          actual.endpoints().stream().map(EndpointPlan::address).toList());
    }
    return new EndpointPlanAssert(actual, endpoint);
  }

  /**
   * Goes to a locality (of the serving priority, else the first that has it); fails if there is none.
   *
   * @param region its region
   * @param zone its zone
   * @param subZone its sub-zone
   * @return the locality's assertions
   */
  public LocalityPlanAssert locality(String region, String zone, String subZone) {
    isNotNull();
    LocalityPlan locality = actual.locality(region, zone, subZone).orElse(null);
    if (locality == null) {
      failWithMessage("Expected cluster %s to have a locality %s/%s/%s", actual.name(), region, zone, subZone);
    }
    return new LocalityPlanAssert(actual, locality);
  }
}
