package io.jxds.balancer.internal.tree;

import java.util.Arrays;
import java.util.List;

/**
 * The check the multi-child layers make before building a picker: does the one they have already
 * serve exactly these children (the same objects, in order) with these weights? If so it is
 * republished as is, so an unchanged aggregate costs the channel nothing (ARCHITECTURE.md, "The
 * load-balancing tree": pickers are built once per state change).
 */
public final class PickerInputs {
  private PickerInputs() {}

  /** Whether {@code children} and {@code weights} are identical to {@code otherChildren} and {@code otherWeights}. */
  public static boolean same(List<?> children, long[] weights, List<?> otherChildren, long[] otherWeights) {
    if (otherChildren.size() != children.size() || !Arrays.equals(weights, otherWeights)) {
      return false;
    }
    for (int i = 0; i < children.size(); i++) {
      if (children.get(i) != otherChildren.get(i)) {
        return false;
      }
    }
    return true;
  }
}
