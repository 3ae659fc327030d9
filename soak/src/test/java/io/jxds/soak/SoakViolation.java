package io.jxds.soak;

/** An invariant broken: the run stops and reports the seed, the operation number and the trace. */
final class SoakViolation extends AssertionError {
  private static final long serialVersionUID = 1L;

  SoakViolation(String message) {
    super(message);
  }
}
