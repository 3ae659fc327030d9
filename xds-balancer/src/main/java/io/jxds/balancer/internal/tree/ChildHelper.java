package io.jxds.balancer.internal.tree;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.util.ForwardingLoadBalancerHelper;

/**
 * A child balancer's helper: everything goes to the parent's helper except state updates, which
 * go to the parent, the one that arbitrates (priority) or aggregates (locality) its children's
 * states.
 */
public final class ChildHelper extends ForwardingLoadBalancerHelper {
  /** Where a child's state updates go. */
  @FunctionalInterface
  public interface StateSink {
    /** The child reported {@code state} with {@code picker}. */
    void onChildState(ConnectivityState state, SubchannelPicker picker);
  }

  private final Helper parent;
  private final StateSink sink;

  /** Forwards to {@code parent}, state updates to {@code sink}. */
  public ChildHelper(Helper parent, StateSink sink) {
    this.parent = parent;
    this.sink = sink;
  }

  @Override
  protected Helper delegate() {
    return parent;
  }

  @Override
  public void updateBalancingState(ConnectivityState newState, SubchannelPicker newPicker) {
    sink.onChildState(newState, newPicker);
  }
}
