package io.jxds.balancer.internal.locality;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.balancer.internal.picker.SmoothWrrSequence;
import io.jxds.balancer.internal.picker.StripedCursor;
import io.jxds.balancer.internal.tree.PickerInputs;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Chooses among the READY localities of a priority in proportion to their {@code
 * load_balancing_weight}, then delegates to the chosen locality's picker.
 *
 * <p>Share error: weights stay exact until this picker is built; {@link SmoothWrrSequence}
 * quantises them only when their gcd-reduced sum exceeds its slot budget {@code C = max(4 096,
 * 64·k)} (at most 64 Ki), and then every locality's share is off by less than {@code 1/C}: at
 * worst 1/4 096 = 0.025 percentage points. Worked number: weights 1, 1 and 5 000 (sum 5 002 >
 * C = 4 096) give slots 1, 1 and 4 094, so shares 0.0244 %, 0.0244 % and 99.951 % against the
 * exact 0.0200 %, 0.0200 % and 99.960 %: errors of 0.0044 and 0.0087 points. Weights whose
 * reduced sum fits (1 to 100 over a few dozen localities, say) are served exactly.
 *
 * <p>Deterministic, not random: a smooth order gives every locality its share within one pick
 * over any window (see {@link SmoothWrrSequence}), where grpc-java's per-RPC weighted random
 * choice has visible variance at low QPS; and it needs no shared random generator, whose
 * contention would cost more than the pick. Only the start position is random, drawn once per
 * picker and thread, so that clients built from the same config do not all begin with the same
 * locality.
 *
 * <p>A pick is one per-thread cursor step ({@link StripedCursor}) and one array read before
 * delegating: O(1), no allocation, no lock, no division.
 */
final class WeightedLocalityPicker extends SubchannelPicker {
  private final List<SubchannelPicker> children;
  private final long[] weights;
  private final SubchannelPicker[] sequence;
  private final StripedCursor cursor;

  WeightedLocalityPicker(
      List<SubchannelPicker> children, long[] weights, int[] order, RandomGenerator random) {
    this.children = List.copyOf(children);
    this.weights = weights.clone();
    this.sequence = new SubchannelPicker[order.length];
    for (int r = 0; r < order.length; r++) {
      sequence[r] = children.get(order[r]);
    }
    this.cursor = new StripedCursor(sequence.length, random);
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return sequence[cursor.next()].pickSubchannel(args);
  }

  /** Whether this picker already serves exactly these children with these weights. */
  boolean serves(List<SubchannelPicker> otherChildren, long[] otherWeights) {
    return PickerInputs.same(children, weights, otherChildren, otherWeights);
  }

  @Override
  public String toString() {
    return "WeightedLocalityPicker{localities=" + children.size() + ", slots=" + sequence.length + "}";
  }
}
