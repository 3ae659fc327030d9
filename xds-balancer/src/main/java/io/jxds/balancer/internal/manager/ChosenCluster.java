package io.jxds.balancer.internal.manager;

import io.grpc.CallOptions;

/**
 * The cluster a call's route chose: set once per call by the resolver's interceptor, read by the
 * cluster manager's picker at every pick of the call (ARCHITECTURE.md, "Routing each call").
 */
public final class ChosenCluster {
  /** The call option holding the cluster's name. */
  public static final CallOptions.Key<String> KEY = CallOptions.Key.create("io.jxds.chosenCluster");

  private ChosenCluster() {}
}
