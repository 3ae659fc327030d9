package io.jxds.toolkit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a request goes ({@link TrafficPlan#request}): the virtual host its authority selects, the
 * route it matches and the clusters it is sent to with their shares, or why it fails. Computed by
 * the client's own route-matching engine (gRFC A27, A28).
 *
 * @param listener the listener it was routed by
 * @param virtualHost the virtual host its authority selects; empty when none does
 * @param outcomes what can happen to it, each with its probability: one outcome, unless routes with
 *     a {@code runtime_fraction} split it
 * @param clusters every cluster it may go to with its share of the request's calls, all outcomes
 *     together
 */
public record RequestRoute(
    String listener, Optional<String> virtualHost, List<Outcome> outcomes, List<RouteCluster> clusters) {
  /**
   * One way a request is routed.
   *
   * @param probability how likely it is
   * @param route the route matched; empty when none is
   * @param clusters the route's clusters and their shares of its calls; empty when it does not forward
   * @param failure what the call fails with (its UNAVAILABLE's text); empty when it is sent on
   */
  public record Outcome(Fraction probability, Optional<String> route, List<RouteCluster> clusters,
      Optional<String> failure) {
    /**
     * Checks the components; the list is copied.
     *
     * @param probability the probability
     * @param route the route
     * @param clusters the clusters
     * @param failure the failure
     */
    public Outcome {
      Objects.requireNonNull(probability, "probability");
      Objects.requireNonNull(route, "route");
      clusters = List.copyOf(clusters);
      Objects.requireNonNull(failure, "failure");
    }
  }

  /**
   * Checks the components; the lists are copied.
   *
   * @param listener the listener
   * @param virtualHost the virtual host
   * @param outcomes the outcomes
   * @param clusters the clusters
   */
  public RequestRoute {
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(virtualHost, "virtualHost");
    outcomes = List.copyOf(outcomes);
    clusters = List.copyOf(clusters);
  }

  /**
   * Whether every call of the request is sent to a cluster.
   *
   * @return false when some fail (no virtual host, no route, a route that does not forward)
   */
  public boolean routed() {
    return outcomes.stream().allMatch(o -> o.failure().isEmpty());
  }

  /**
   * What its calls fail with, when some do.
   *
   * @return the first failing outcome's text
   */
  public Optional<String> failure() {
    return outcomes.stream().flatMap(o -> o.failure().stream()).findFirst();
  }

  /**
   * The route matched, when one route takes every call.
   *
   * @return the route's name; empty when none matches or runtime fractions split the calls
   */
  public Optional<String> route() {
    return outcomes.size() == 1 ? outcomes.get(0).route() : Optional.empty();
  }

  /**
   * A cluster's share of the request's calls.
   *
   * @param name the cluster's name
   * @return its share, 0 when the request never goes there
   */
  public Fraction share(String name) {
    return clusters.stream().filter(c -> c.name().equals(name)).map(RouteCluster::share).findFirst()
        .orElse(Fraction.ZERO);
  }
}
