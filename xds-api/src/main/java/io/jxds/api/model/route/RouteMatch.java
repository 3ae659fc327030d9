package io.jxds.api.model.route;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A route's {@code match} (gRFC A28): the path, then every header matcher, then the runtime
 * fraction must match. Fields gRPC does not read ({@code grpc}, {@code tls_context},
 * {@code dynamic_metadata}) are not here: they match everything. A route with
 * {@code query_parameters} never matches, so the decoder leaves it out.
 *
 * @param path what the path ({@code /package.Service/Method}) must match: {@code prefix},
 *     {@code path} (exact) or {@code safe_regex}; {@code case_sensitive} false reads as
 *     {@code ignoreCase}
 * @param headers the header matchers, all of which must match
 * @param runtimeFraction the share of calls the route is considered for, when set
 */
public record RouteMatch(StringMatcher path, List<HeaderMatcher> headers, Optional<RuntimeFraction> runtimeFraction) {
  /**
   * Checks the components; the list is copied.
   *
   * @param path the path matcher
   * @param headers the header matchers
   * @param runtimeFraction the runtime fraction, when set
   */
  public RouteMatch {
    Objects.requireNonNull(path, "path");
    headers = List.copyOf(headers);
    Objects.requireNonNull(runtimeFraction, "runtimeFraction");
  }

  /**
   * A match on the path alone.
   *
   * @param path the path matcher
   * @return the match
   */
  public static RouteMatch path(StringMatcher path) {
    return new RouteMatch(path, List.of(), Optional.empty());
  }
}
