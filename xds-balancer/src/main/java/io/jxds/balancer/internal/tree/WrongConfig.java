package io.jxds.balancer.internal.tree;

import io.grpc.Status;

/**
 * Every layer's answer to a config of another type than its own (ARCHITECTURE.md, "The
 * load-balancing tree"): UNAVAILABLE naming the layer, what it expected and what it got, returned
 * from {@code acceptResolvedAddresses} with nothing changed, so the layer keeps serving what it
 * served. UNAVAILABLE because a channel reads any non-OK status from {@code
 * acceptResolvedAddresses} the same way, as "re-resolve with backoff", as grpc-java's own policies
 * say about a resolution result they cannot use; INVALID_ARGUMENT stays what {@code
 * parseLoadBalancingPolicyConfig} says about a bad service config.
 */
public final class WrongConfig {
  private WrongConfig() {}

  /**
   * The status a layer returns for a config of the wrong type.
   *
   * @param layer the layer's name, as it names itself in logs and errors
   * @param expected what it takes, e.g. {@code "an EndpointGroup"}
   * @param got the config it was given
   */
  public static Status status(String layer, String expected, Object got) {
    return Status.UNAVAILABLE.withDescription(layer + ": expected " + expected + " config, got " + got);
  }
}
