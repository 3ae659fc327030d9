package io.jxds.balancer.internal.resolver;

import io.grpc.LoadBalancer.PickSubchannelArgs;
import java.util.Set;

/**
 * The routes of a channel at one moment: what the LDS/RDS watcher builds from the listener, its
 * route configuration and the virtual host chosen for the channel's authority, and what the
 * resolver routes each call by (ARCHITECTURE.md, "Routing each call"). Immutable: a change is a
 * new table.
 */
public interface RouteTable {
  /**
   * Every cluster a call may be routed to (each {@code cluster} action and every {@code
   * weighted_clusters} entry, weight 0 included): the cluster manager gets one child for each,
   * before the table routes its first call.
   *
   * @return the cluster names
   */
  Set<String> clusters();

  /**
   * Chooses one call's route: once per call, when it starts, on the caller's thread. Must not
   * throw, and returns only clusters of {@link #clusters()}.
   *
   * @param call the call's method, headers and call options
   * @return the cluster, or why the call fails
   */
  RouteChoice choose(PickSubchannelArgs call);
}
