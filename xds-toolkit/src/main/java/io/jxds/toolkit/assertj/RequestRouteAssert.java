package io.jxds.toolkit.assertj;

import io.jxds.toolkit.RequestRoute;
import io.jxds.toolkit.RouteCluster;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/** Assertions on where a request goes ({@link RequestRoute}). */
public final class RequestRouteAssert extends AbstractAssert<RequestRouteAssert, RequestRoute> {
  private final String request;

  RequestRouteAssert(RequestRoute actual, String request) {
    super(actual, RequestRouteAssert.class);
    this.request = request;
  }

  /**
   * Checks that every call of the request is sent on, to exactly these clusters (each with a share
   * above 0).
   *
   * @param clusters the clusters' names
   * @return this
   */
  public RequestRouteAssert routesTo(String... clusters) {
    isNotNull();
    if (!actual.routed()) {
      failWithMessage("Expected %s to go to %s, but it fails: %s", request, Arrays.toString(clusters),
          actual.failure().orElse(""));
    }
    Set<String> taken = actual.clusters().stream().filter(c -> !c.share().isZero()).map(RouteCluster::name)
        .collect(Collectors.toSet());
    if (!taken.equals(Set.of(clusters))) {
      failWithMessage("Expected %s to go to %s, but it goes to %s", request, Arrays.toString(clusters),
          describe(actual.clusters()));
    }
    return this;
  }

  /**
   * Checks a cluster's share of the request's calls, given as a decimal (within 1e-9).
   *
   * @param cluster the cluster's name
   * @param share the expected share, e.g. {@code 0.9}
   * @return this
   */
  public RequestRouteAssert withShare(String cluster, double share) {
    isNotNull();
    if (!Shares.matches(actual.share(cluster), share, Shares.DECIMAL_TOLERANCE)) {
      failWithMessage("Expected %s to send %s of its calls to %s, but it sends %s (clusters: %s)", request, share,
          cluster, Shares.show(actual.share(cluster)), describe(actual.clusters()));
    }
    return this;
  }

  /**
   * Checks the route that takes every call of the request.
   *
   * @param route the route's name ({@code routes[i]} for an unnamed one)
   * @return this
   */
  public RequestRouteAssert matchesRoute(String route) {
    isNotNull();
    if (!actual.route().equals(java.util.Optional.of(route))) {
      failWithMessage("Expected %s to match route %s, but it matches %s", request, route,
          actual.outcomes().stream().map(o -> o.route().orElse("none") + " (" + o.probability() + ")").toList());
    }
    return this;
  }

  /**
   * Checks that the request's calls fail (no virtual host, no route, a route that does not forward,
   * a listener or routes missing or NACKed), with a text that contains this.
   *
   * @param text the expected part of the failure
   * @return this
   */
  public RequestRouteAssert failsWithMessageContaining(String text) {
    isNotNull();
    String failure = actual.failure().orElse(null);
    if (failure == null) {
      failWithMessage("Expected %s to fail, but it goes to %s", request, describe(actual.clusters()));
    } else if (!failure.contains(text)) {
      failWithMessage("Expected %s to fail with a text containing \"%s\", but it fails with \"%s\"", request, text,
          failure);
    }
    return this;
  }

  private static String describe(List<RouteCluster> clusters) {
    return clusters.stream().map(c -> c.name() + " " + Shares.show(c.share())).toList().toString();
  }
}
