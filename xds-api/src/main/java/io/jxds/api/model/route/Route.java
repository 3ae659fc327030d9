package io.jxds.api.model.route;

import io.jxds.api.model.filter.HttpFilterConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One route of a virtual host: the first route whose {@link RouteMatch match} matches a call
 * decides its {@link RouteAction action} (gRFC A28), and, for a forwarding action, the call's
 * timeout, retries and request hash (gRFC A31, A44, A42).
 *
 * @param name the route's {@code name}, or {@code routes[N]} (its index in the virtual host's
 *     {@code routes}) when the control plane gave none: what errors name
 * @param match what a call must match
 * @param action what happens to a call that matches
 * @param maxStreamDuration the call timeout of {@code route.max_stream_duration} (gRFC A31): its
 *     {@code grpc_timeout_header_max} when set, else its {@code max_stream_duration}; empty when
 *     neither is set (the listener's {@code max_stream_duration} applies); {@link Duration#ZERO}
 *     when the route says none (no timeout, not even the listener's)
 * @param retryPolicy {@code route.retry_policy} (gRFC A44); empty: the virtual host's applies
 * @param hashPolicies {@code route.hash_policy} entries gRPC computes, in order (gRFC A42)
 * @param filterOverrides its {@code typed_per_filter_config} by filter name: over the virtual
 *     host's for this route's calls (gRFC A39); only filters jxds runs
 */
public record Route(String name, RouteMatch match, RouteAction action, Optional<Duration> maxStreamDuration,
    Optional<RetryPolicy> retryPolicy, List<HashPolicy> hashPolicies, Map<String, HttpFilterConfig> filterOverrides) {
  /**
   * Checks the components; the list is copied.
   *
   * @param name the route's name, not empty
   * @param match the match
   * @param action the action
   * @param maxStreamDuration the timeout, not negative
   * @param retryPolicy the retry policy
   * @param hashPolicies the hash policies
   * @param filterOverrides the filter overrides
   * @throws IllegalArgumentException if the name is empty or the timeout negative
   */
  public Route {
    filterOverrides = Map.copyOf(filterOverrides);
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    hashPolicies = List.copyOf(hashPolicies);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    if (maxStreamDuration.isPresent() && maxStreamDuration.get().isNegative()) {
      throw new IllegalArgumentException("maxStreamDuration must not be negative, got " + maxStreamDuration.get());
    }
  }

  /**
   * A route without filter overrides.
   *
   * @param name the route's name, not empty
   * @param match the match
   * @param action the action
   * @param maxStreamDuration the timeout, not negative
   * @param retryPolicy the retry policy
   * @param hashPolicies the hash policies
   */
  public Route(String name, RouteMatch match, RouteAction action, Optional<Duration> maxStreamDuration,
      Optional<RetryPolicy> retryPolicy, List<HashPolicy> hashPolicies) {
    this(name, match, action, maxStreamDuration, retryPolicy, hashPolicies, Map.of());
  }

  /**
   * A route with no timeout, retry or hash settings of its own.
   *
   * @param name the route's name, not empty
   * @param match the match
   * @param action the action
   */
  public Route(String name, RouteMatch match, RouteAction action) {
    this(name, match, action, Optional.empty(), Optional.empty(), List.of(), Map.of());
  }
}
