package io.jxds.toolkit.assertj;

import io.jxds.toolkit.ClusterPlan;
import io.jxds.toolkit.TrafficPlan;
import java.util.Map;
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
   * Goes to where a request goes on an {@code xds:///} channel whose listener is named by the
   * authority (or through the plan's only listener): {@link TrafficPlan#request}.
   *
   * @param authority the channel's authority
   * @param path the method's path, {@code /package.Service/Method}
   * @param headers the call's headers
   * @return the request's assertions
   */
  public RequestRouteAssert request(String authority, String path, Map<String, String> headers) {
    isNotNull();
    return new RequestRouteAssert(actual.request(authority, path, headers),
        "request " + authority + " " + path + (headers.isEmpty() ? "" : " " + headers));
  }

  /**
   * Goes to where a request without headers goes: {@link #request(String, String, Map)}.
   *
   * @param authority the channel's authority
   * @param path the method's path, {@code /package.Service/Method}
   * @return the request's assertions
   */
  public RequestRouteAssert request(String authority, String path) {
    return request(authority, path, Map.of());
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
