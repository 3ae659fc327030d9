package io.jxds.balancer.internal;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.jxds.api.XdsClient;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.cds.CdsBalancer;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root of the {@code xds_cluster} tree: finds the {@link XdsClient}, and runs one
 * {@link CdsBalancer} per cluster name under a {@link GracefulSwitchLoadBalancer}, so that a new
 * cluster name in the config keeps the old tree serving until the new one is READY (or fails).
 *
 * <p>The client comes from, in order: the {@link XdsClusterPolicy#XDS_CLIENT_ATTRIBUTE} on the
 * resolved addresses, the {@link XdsClusterPolicy#XDS_CLIENT_ARG} name-resolver arg, or the shared
 * pool by the bootstrap. Pool clients are released on shutdown (channel idle included: the pool's
 * retention keeps the cache warm for the wake-up); handed-in clients are never closed.
 *
 * <p>When no client can be had (no bootstrap yet, or a bad one), RPCs fail with the reason and
 * the resolved addresses are rejected with it, so that the channel re-resolves with backoff and
 * the next result looks for the bootstrap again.
 */
final class XdsClusterLoadBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(XdsClusterLoadBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final PooledClientSource pool;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private final GracefulSwitchLoadBalancer clusters;
  private XdsClientLease lease;
  private ClusterPolicyConfig config;
  /** The last reason no client could be had, so that retries log and push it once. */
  private String lastAcquireFailure;

  /**
   * @param pool where the client comes from when none is handed in
   * @param pickRandom draws drops on RPC threads: must be thread-safe
   * @param treeRandom seeds the priority tree's pickers, on the SynchronizationContext
   */
  XdsClusterLoadBalancer(
      Helper helper, PooledClientSource pool, RandomGenerator pickRandom, RandomGenerator treeRandom) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.pool = pool;
    this.pickRandom = pickRandom;
    this.treeRandom = treeRandom;
    this.clusters = new GracefulSwitchLoadBalancer(helper);
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof ClusterPolicyConfig newConfig)) {
      return WrongConfig.status("xds_cluster", "a parsed xds_cluster", lbConfig);
    }
    if (lease == null) {
      try {
        lease = acquireClient(resolvedAddresses);
      } catch (RuntimeException e) {
        // IllegalStateException from the pool names the bootstrap's problem; anything else is
        // reported the same way rather than thrown into the channel's SynchronizationContext.
        Status failure =
            Status.UNAVAILABLE.withDescription("cluster " + newConfig.cluster() + ": " + e.getMessage());
        if (!failure.getDescription().equals(lastAcquireFailure)) {
          logger.warn("xds_cluster {}: no xDS client: {}", newConfig.cluster(), e.getMessage());
          lastAcquireFailure = failure.getDescription();
          helper.updateBalancingState(ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(failure));
        }
        // RPCs fail with the reason; the non-OK status makes the channel re-resolve with backoff
        // (the contract of acceptResolvedAddresses' return value), and the next result tries the
        // bootstrap again, so a bootstrap that appears later is found without the channel going
        // idle. The config is not kept, so that the retry is not taken for "unchanged".
        return failure;
      }
      if (lastAcquireFailure != null) {
        logger.info("xds_cluster {}: xDS client acquired", newConfig.cluster());
        lastAcquireFailure = null;
      }
    }
    if (newConfig.equals(config)) {
      return Status.OK;
    }
    config = newConfig;
    Object switchConfig = GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(
        new CdsFactory(newConfig.cluster(), lease.client(), pickRandom, treeRandom), newConfig);
    return clusters.acceptResolvedAddresses(
        resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(switchConfig).build());
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (config == null) {
      helper.updateBalancingState(ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE
          .withDescription("xds_cluster: name resolution failed: " + error.getDescription())
          .withCause(error.getCause())));
    }
    // With a config the control plane decides; resolver errors mean nothing to xds_cluster.
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    clusters.requestConnection();
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    clusters.shutdown();
    if (lease != null) {
      lease.release();
      lease = null;
    }
  }

  private XdsClientLease acquireClient(ResolvedAddresses resolvedAddresses) {
    XdsClient fromAttributes = resolvedAddresses.getAttributes().get(XdsClusterPolicy.XDS_CLIENT_ATTRIBUTE);
    if (fromAttributes != null) {
      return XdsClientLease.borrowed(fromAttributes);
    }
    NameResolver.Args args = nameResolverArgs();
    XdsClient fromArgs = args == null ? null : args.getArg(XdsClusterPolicy.XDS_CLIENT_ARG);
    if (fromArgs != null) {
      return XdsClientLease.borrowed(fromArgs);
    }
    return pool.acquire();
  }

  private NameResolver.Args nameResolverArgs() {
    try {
      return helper.getNameResolverArgs();
    } catch (UnsupportedOperationException e) {
      return null; // a Helper that is not a channel's (tests, other parents) may not have them
    }
  }

  /** Equal for the same cluster, so that the graceful switch happens only when the name changes. */
  private static final class CdsFactory extends LoadBalancer.Factory {
    private final String cluster;
    private final XdsClient client;
    private final RandomGenerator pickRandom;
    private final RandomGenerator treeRandom;

    CdsFactory(String cluster, XdsClient client, RandomGenerator pickRandom, RandomGenerator treeRandom) {
      this.cluster = Objects.requireNonNull(cluster, "cluster");
      this.client = client;
      this.pickRandom = pickRandom;
      this.treeRandom = treeRandom;
    }

    @Override
    public LoadBalancer newLoadBalancer(Helper helper) {
      return new CdsBalancer(helper, client, cluster, pickRandom, treeRandom);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CdsFactory f && f.cluster.equals(cluster) && f.client == client;
    }

    @Override
    public int hashCode() {
      return cluster.hashCode();
    }
  }
}
