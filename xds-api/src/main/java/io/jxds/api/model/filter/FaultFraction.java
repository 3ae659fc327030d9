package io.jxds.api.model.filter;

/**
 * A fault's {@code percentage} ({@code envoy.type.v3.FractionalPercent}): the share of calls the
 * fault applies to, {@code numerator / denominator}. gRFC A33 draws each call's chance in parts per
 * million: {@code HUNDRED} is ×10 000, {@code TEN_THOUSAND} ×100, {@code MILLION} ×1.
 *
 * @param numerator in [0, denominator]: a larger one is capped to the denominator when decoded
 *     (100 %, as Envoy and grpc-java do)
 * @param denominator 100, 10 000 or 1 000 000
 */
public record FaultFraction(long numerator, long denominator) {
  private static final long MILLION = 1_000_000;

  /** No call: the default of an unset {@code percentage} (0 / {@code HUNDRED}). */
  public static final FaultFraction NEVER = new FaultFraction(0, 100);

  /**
   * Checks the components.
   *
   * @param numerator in [0, denominator]
   * @param denominator 100, 10 000 or 1 000 000
   * @throws IllegalArgumentException if a component is out of range
   */
  public FaultFraction {
    if (denominator != 100 && denominator != 10_000 && denominator != MILLION) {
      throw new IllegalArgumentException("denominator must be 100, 10000 or 1000000, got " + denominator);
    }
    if (numerator < 0 || numerator > denominator) {
      throw new IllegalArgumentException("numerator must be in [0, " + denominator + "], got " + numerator);
    }
  }

  /**
   * The share in parts per million: a call is faulted when a draw in [0, 1 000 000) is below it.
   *
   * @return in [0, 1 000 000]
   */
  public int perMillion() {
    return withNumerator(numerator);
  }

  /**
   * The share with the numerator a call's {@code x-envoy-fault-*-percentage} header asks for: gRFC
   * A33 keeps the denominator and caps the header's numerator to this one.
   *
   * @param headerNumerator the header's value, not negative
   * @return in [0, {@link #perMillion()}]
   */
  public int withNumerator(long headerNumerator) {
    long n = Math.min(Math.max(headerNumerator, 0), numerator);
    return (int) (n * (MILLION / denominator));
  }
}
