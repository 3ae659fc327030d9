package io.jxds.balancer.internal.picker;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;

/** The picker of a balancer that is CONNECTING or IDLE: RPCs wait for the next picker. */
public final class QueuingPicker extends SubchannelPicker {
  /** The one instance; its identity lets parents skip pushing an unchanged state. */
  public static final QueuingPicker INSTANCE = new QueuingPicker();

  private static final PickResult NO_RESULT = PickResult.withNoResult();

  private QueuingPicker() {}

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return NO_RESULT;
  }

  @Override
  public String toString() {
    return "QueuingPicker";
  }
}
