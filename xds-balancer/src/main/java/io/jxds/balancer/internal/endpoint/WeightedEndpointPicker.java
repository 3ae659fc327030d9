package io.jxds.balancer.internal.endpoint;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.balancer.internal.picker.SmoothWrrSequence;
import io.jxds.balancer.internal.picker.StripedCursor;
import io.jxds.balancer.internal.tree.PickerInputs;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Smooth weighted round robin over the READY subchannels of one locality, by endpoint {@code
 * load_balancing_weight}: an endpoint's share is its weight over the READY endpoints' total
 * (envoy's LbEndpoint semantics). The order comes from {@link SmoothWrrSequence} (see there for
 * the quantisation error and the smoothness bound), pre-resolved to one {@link PickResult} per
 * slot, so a pick is one per-thread cursor step ({@link StripedCursor}: a load, a compare, a
 * store) and one array read: no allocation, no lock, no division. The start is random (drawn
 * once per picker), so that many clients built from the same config do not all start on the same
 * endpoint (envoy's "first pick" problem).
 */
final class WeightedEndpointPicker extends SubchannelPicker {
  private final List<Subchannel> subchannels;
  private final long[] weights;
  private final PickResult[] sequence;
  private final StripedCursor cursor;

  WeightedEndpointPicker(List<Subchannel> subchannels, long[] weights, RandomGenerator random) {
    this.subchannels = List.copyOf(subchannels);
    this.weights = weights.clone();
    PickResult[] results = new PickResult[subchannels.size()];
    for (int i = 0; i < results.length; i++) {
      results[i] = PickResult.withSubchannel(subchannels.get(i));
    }
    int[] order = SmoothWrrSequence.build(weights);
    this.sequence = new PickResult[order.length];
    for (int i = 0; i < order.length; i++) {
      sequence[i] = results[order[i]];
    }
    this.cursor = new StripedCursor(sequence.length, random);
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return sequence[cursor.next()];
  }

  /** Whether this picker already serves exactly these children with these weights. */
  boolean serves(List<Subchannel> otherSubchannels, long[] otherWeights) {
    return PickerInputs.same(subchannels, weights, otherSubchannels, otherWeights);
  }

  @Override
  public String toString() {
    return "WeightedEndpointPicker{endpoints=" + subchannels.size() + ", slots=" + sequence.length + "}";
  }
}
