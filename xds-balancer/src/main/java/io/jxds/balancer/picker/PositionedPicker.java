package io.jxds.balancer.picker;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;

/**
 * A picker that walks a fixed cyclic order, so that a parent that already counts its own picks
 * can tell it which position to serve instead of making it count too.
 *
 * <p>Why: a parent weighted picker knows, from its own cursor, how many times it has chosen this
 * child so far; passing that number down ({@link #pickAt}) gives exactly the order the child's
 * own cursor would have produced, with one atomic increment per RPC for the whole chain instead
 * of one per layer. Called alone ({@link #pickSubchannel}), it advances its own cursor.
 */
public abstract class PositionedPicker extends SubchannelPicker {
  private final StripedCursor cursor = new StripedCursor();

  /**
   * The pick for the {@code position}-th RPC this picker serves (0, 1, 2, ...; wraps after
   * 2^31). Must not allocate, block or read {@code args}-dependent state.
   */
  public abstract PickResult pickAt(int position);

  @Override
  public final PickResult pickSubchannel(PickSubchannelArgs args) {
    return pickAt(cursor.next());
  }
}
