package io.jxds.balancer.internal.tree;

import io.grpc.ConnectivityState;

/**
 * gRFC A62's sticky TRANSIENT_FAILURE for one endpoint: once its subchannel failed, the endpoint
 * counts as failed while the subchannel retries (CONNECTING) and until it is READY, so a balancer
 * whose endpoints are all down reports TRANSIENT_FAILURE instead of flapping through CONNECTING.
 */
final class StickyFailure {
  private StickyFailure() {}

  /**
   * The endpoint's effective state after its subchannel reported {@code reported} (not
   * SHUTDOWN), given its effective state {@code current}.
   */
  static ConnectivityState next(ConnectivityState current, ConnectivityState reported) {
    if (reported == ConnectivityState.CONNECTING && current == ConnectivityState.TRANSIENT_FAILURE) {
      return ConnectivityState.TRANSIENT_FAILURE;
    }
    return reported;
  }
}
