package io.jxds.balancer.internal.manager;

import io.grpc.CallOptions;
import java.util.Objects;

/**
 * The cluster a call's route chose, with the request hash its route's hash policies produced, if
 * any (gRFC A42): set once per call by the resolver's interceptor as one call option (each option
 * copies the call's options), read by the cluster manager's picker and by the ring hash and maglev
 * pickers at every pick of the call (ARCHITECTURE.md, "Routing each call"). Immutable.
 */
public final class ChosenCluster {
  /** The call option holding the choice. */
  public static final CallOptions.Key<ChosenCluster> KEY = CallOptions.Key.create("io.jxds.chosenCluster");

  private final String cluster;
  private final boolean hashed;
  private final long requestHash;

  private ChosenCluster(String cluster, boolean hashed, long requestHash) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.hashed = hashed;
    this.requestHash = requestHash;
  }

  /**
   * A choice without a request hash.
   *
   * @param cluster the cluster's name
   * @return the choice
   */
  public static ChosenCluster of(String cluster) {
    return new ChosenCluster(cluster, false, 0);
  }

  /**
   * A choice with the request hash of its route's hash policies, which replaces the application's
   * {@code XdsClusterPolicy.REQUEST_HASH} (a route's policy is the operator's).
   *
   * @param requestHash the hash
   * @return the choice
   */
  public ChosenCluster withRequestHash(long requestHash) {
    return new ChosenCluster(cluster, true, requestHash);
  }

  /** The cluster's name. */
  public String cluster() {
    return cluster;
  }

  /** Whether the route produced a request hash. */
  public boolean hasRequestHash() {
    return hashed;
  }

  /** The route's request hash; meaningful only when {@link #hasRequestHash()}. */
  public long requestHash() {
    return requestHash;
  }

  @Override
  public String toString() {
    return hashed ? cluster + " (request hash " + Long.toHexString(requestHash) + ")" : cluster;
  }
}
