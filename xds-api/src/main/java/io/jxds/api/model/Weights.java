package io.jxds.api.model;

/** Range checks for xDS weights, which are unsigned 32-bit values held in a {@code long}. */
final class Weights {
  /** 2^32 - 1: the largest value of a protobuf {@code uint32}. */
  static final long MAX_UINT32 = 0xFFFF_FFFFL;

  private Weights() {}

  static long requireWeight(long weight, String what) {
    if (weight < 1 || weight > MAX_UINT32) {
      throw new IllegalArgumentException(what + " must be in [1, 2^32-1], got " + weight);
    }
    return weight;
  }
}
