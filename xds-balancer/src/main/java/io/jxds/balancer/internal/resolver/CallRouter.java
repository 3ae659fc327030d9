package io.jxds.balancer.internal.resolver;

import io.grpc.LoadBalancer.PickSubchannelArgs;

/**
 * Routes each call once, when it starts, on the caller's thread (gRFC A31's config selector): the
 * channel asks before the call's first pick, and every later pick of the call (a wait-for-ready
 * call picked again, a transparent retry, a retry attempt) goes to the cluster decided here.
 */
@FunctionalInterface
public interface CallRouter {
  /**
   * Decides the call's route. Runs on RPC threads: reads immutable snapshots, never throws.
   *
   * @param call the call's method, headers and call options
   * @return how the call runs, or why it fails
   */
  CallRoute route(PickSubchannelArgs call);
}
