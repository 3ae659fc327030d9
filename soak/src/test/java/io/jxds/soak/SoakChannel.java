package io.jxds.soak;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One channel under load, with what the harness expects of it: on {@code xds-cluster:///CLUSTER}
 * ({@link #cluster} is the cluster), or on {@code xds:///LISTENER} ({@link #cluster} is the
 * listener's name, {@link #lane} the value its RPCs carry in the lane header).
 */
final class SoakChannel {
  final int id;
  final String cluster;
  /** For an {@code xds:///} channel: the lane header's value; else null. */
  final String lane;
  final ManagedChannel channel;
  /** What RPCs are issued on: the channel, with the lane header attached for an {@code xds:///} one. */
  final Channel calls;
  final AtomicInteger inFlight = new AtomicInteger();
  /** RPCs issued so far; the next one's {@link RpcResult#seq()}. */
  final AtomicLong issued = new AtomicLong();
  final AtomicReference<Sample> sample = new AtomicReference<>();
  /** Set before shutdown: its RPCs are cancelled, which is no failure of the client. */
  volatile boolean closing;
  /**
   * Opened while the control plane was down, on a cluster the client had no cached value for: it
   * cannot route until the control plane is back, so its RPCs may wait or fail until then.
   */
  volatile boolean cold;
  /** The last converged expectation was FAIL: failures are expected. */
  volatile boolean expectFailures;
  /**
   * The grace-window keys whose windows excuse this channel's failures: its cluster; for an {@code
   * xds:///} channel the listener's key and every cluster its routes name (during a route change,
   * those of the old routes and of the new).
   */
  volatile Set<String> excuseKeys;
  /**
   * For an {@code xds:///} channel: texts a failure may contain without breaking an invariant, as
   * its routes lead some calls to a cluster that fails them (deleted, no usable endpoint) or the
   * listener is deleted. A route change itself excuses nothing.
   */
  volatile Set<String> failTexts = Set.of();
  /**
   * For an {@code xds:///} channel during a backend kill: its route retries (at least twice, gRFC
   * A44) and every cluster of it keeps a live usable endpoint, so no call may fail because the one
   * endpoint died (the kill's grace window does not excuse it). Null otherwise; else the route.
   */
  volatile String retryGuard;
  /** For a hash-policy route on one RING_HASH cluster: the endpoint set its key was last seen on, and where. */
  String stickySignature;
  int stickyBackend = -1;

  SoakChannel(int id, String cluster, String lane, ManagedChannel channel, Channel calls) {
    this.id = id;
    this.cluster = cluster;
    this.lane = lane;
    this.channel = channel;
    this.calls = calls;
    this.excuseKeys = Set.of(cluster);
  }

  boolean routed() {
    return lane != null;
  }
}
