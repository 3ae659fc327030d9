package io.jxds.balancer.internal.tree;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.SubchannelPicker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a balancer last pushed to its helper. A parent balancer recomputes its aggregate state often
 * (after every child report); the channel is told only when the state or the picker changed, so an
 * unchanged aggregate costs the channel nothing. Used on the SynchronizationContext only.
 */
public final class PublishedState {
  private static final Logger logger = LoggerFactory.getLogger(PublishedState.class);

  private final Helper helper;
  private ConnectivityState state;
  private SubchannelPicker picker;

  /** Publishes to {@code helper}. */
  public PublishedState(Helper helper) {
    this.helper = helper;
  }

  /** Pushes {@code newState} and {@code newPicker} unless both are what was pushed last. */
  public void publish(String name, ConnectivityState newState, SubchannelPicker newPicker) {
    if (newState == state && newPicker == picker) {
      return;
    }
    if (newState != state) {
      logger.debug("{}: {} -> {}", name, state, newState);
    }
    state = newState;
    picker = newPicker;
    helper.updateBalancingState(newState, newPicker);
  }

  /** The state pushed last, or null before the first push. */
  public ConnectivityState state() {
    return state;
  }

  /** The picker pushed last, or null before the first push. */
  public SubchannelPicker picker() {
    return picker;
  }
}
