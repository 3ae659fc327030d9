package io.jxds.balancer.locality;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.balancer.picker.PositionedPicker;
import io.jxds.balancer.picker.SmoothWrrSequence;
import io.jxds.balancer.picker.StripedCursor;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Chooses among the READY localities of a priority in proportion to their {@code
 * load_balancing_weight}, then delegates to the chosen locality's picker.
 *
 * <p>Share error: weights stay exact until this picker is built; {@link SmoothWrrSequence}
 * quantises them only when their gcd-reduced sum exceeds 65 536 slots, and then every locality's
 * share is off by less than 1/65 536 = 0.0015 percentage points. Worked number: weights 1, 2 and
 * 4 294 967 295 (sum 4 294 967 298) give slots 0, 0 and 65 536: the two light localities, whose
 * exact shares are 2.3·10⁻⁸ and 4.7·10⁻⁸, take nothing, an error of 5·10⁻⁶ points. Weights as
 * control planes send them (1 to a few thousand per locality) are served exactly.
 *
 * <p>Deterministic, not random: a smooth order gives every locality its share within one pick
 * over any window (see {@link SmoothWrrSequence}), where grpc-java's per-RPC weighted random
 * choice has visible variance at low QPS; and it needs no shared random generator, whose
 * contention would cost more than the pick. Only the start position is random, drawn once per
 * picker, so that clients built from the same config do not all begin with the same locality.
 *
 * <p>A pick is one cursor increment, one division and two array reads: O(1), no allocation, no
 * lock. When the chosen locality's picker is a {@link PositionedPicker} (the endpoint leaf's
 * always is), this picker tells it its position, computed from this picker's own position:
 * {@code occurrence = cycle × q_i + rank[slot]}, where {@code q_i} is the locality's slot count
 * and {@code rank[slot]} how often it appeared earlier in the cycle. That is exactly the count
 * the child's own cursor would hold, so one atomic increment serves the whole chain.
 */
final class WeightedLocalityPicker extends SubchannelPicker {
  private final List<SubchannelPicker> children;
  private final long[] weights;
  private final SubchannelPicker[] sequence;
  private final int[] rank; // occurrences of sequence[r]'s locality before slot r
  private final int[] slotsPerCycle; // per slot: its locality's slot count q_i
  private final int offset;
  private final StripedCursor cursor = new StripedCursor();

  WeightedLocalityPicker(
      List<SubchannelPicker> children, long[] weights, int[] order, RandomGenerator random) {
    this.children = List.copyOf(children);
    this.weights = weights.clone();
    this.sequence = new SubchannelPicker[order.length];
    this.rank = new int[order.length];
    this.slotsPerCycle = new int[order.length];
    int[] seen = new int[children.size()];
    for (int r = 0; r < order.length; r++) {
      sequence[r] = children.get(order[r]);
      rank[r] = seen[order[r]]++;
    }
    for (int r = 0; r < order.length; r++) {
      slotsPerCycle[r] = seen[order[r]];
    }
    this.offset = random.nextInt(sequence.length);
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    int length = sequence.length;
    int position = cursor.next();
    int cycle = position / length;
    int r = position - cycle * length + offset;
    if (r >= length) {
      r -= length;
      cycle++;
    }
    SubchannelPicker child = sequence[r];
    if (child instanceof PositionedPicker positioned) {
      int occurrence = cycle * slotsPerCycle[r] + rank[r];
      return positioned.pickAt(occurrence & Integer.MAX_VALUE);
    }
    return child.pickSubchannel(args);
  }

  /** Whether this picker already serves exactly these child pickers with these weights. */
  boolean serves(List<SubchannelPicker> otherChildren, long[] otherWeights) {
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

  /** The weights this picker was built for, for reusing its order. */
  long[] weights() {
    return weights.clone();
  }

  @Override
  public String toString() {
    return "WeightedLocalityPicker{localities=" + children.size() + ", slots=" + sequence.length + "}";
  }
}
