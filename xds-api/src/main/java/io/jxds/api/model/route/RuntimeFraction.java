package io.jxds.api.model.route;

/**
 * A route's {@code match.runtime_fraction.default_value} (gRFC A28; gRPC has no runtime, so
 * {@code runtime_key} is not read): each call draws a number uniformly in
 * {@code [0, denominator)} and the route matches when it is below {@code numerator}. So 0 never
 * matches and a numerator of at least the denominator always does.
 *
 * @param numerator an unsigned 32-bit value (grpc-java reads it as signed, so that a numerator of
 *     2^31 or more never matches there)
 * @param denominator 100, 10 000 or 1 000 000 ({@code HUNDRED}, {@code TEN_THOUSAND},
 *     {@code MILLION})
 */
public record RuntimeFraction(long numerator, long denominator) {
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  /**
   * Checks the components.
   *
   * @param numerator in [0, 2^32-1]
   * @param denominator 100, 10 000 or 1 000 000
   * @throws IllegalArgumentException if a component is out of range
   */
  public RuntimeFraction {
    if (numerator < 0 || numerator > MAX_UINT32) {
      throw new IllegalArgumentException("numerator must be in [0, 2^32-1], got " + numerator);
    }
    if (denominator != 100 && denominator != 10_000 && denominator != 1_000_000) {
      throw new IllegalArgumentException("denominator must be 100, 10000 or 1000000, got " + denominator);
    }
  }

  /**
   * Whether a call that drew {@code draw} matches.
   *
   * @param draw a number drawn uniformly in {@code [0, denominator)}
   * @return true when {@code draw < numerator}
   */
  public boolean matches(long draw) {
    return draw < numerator;
  }
}
