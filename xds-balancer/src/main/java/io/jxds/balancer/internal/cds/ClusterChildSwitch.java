package io.jxds.balancer.internal.cds;

import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.jxds.api.XdsClient;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Runs a cluster by its kind (EDS, LOGICAL_DNS, an aggregate, or one that cannot be served), and
 * hands over gracefully when the kind changes, as gRPC's graceful switch does
 * ({@link GracefulSwitchLoadBalancer}): the new kind's balancer is built beside the old one, which
 * keeps serving until the new one reports something other than CONNECTING (or the old one stops
 * being READY). A change within a kind is applied in place.
 *
 * <p>Configs: {@link LeafClusterConfig} (EDS or LOGICAL_DNS, by its {@code logicalDns}),
 * {@link FailedCluster.Config}, and anything else goes to the aggregate kind when there is one.
 */
public final class ClusterChildSwitch extends LoadBalancer {
  private final SynchronizationContext syncContext;
  private final GracefulSwitchLoadBalancer delegate;
  private final LoadBalancer.Factory eds;
  private final LoadBalancer.Factory dns;
  private final LoadBalancer.Factory failed;
  private final LoadBalancer.Factory aggregates;

  /**
   * @param aggregates makes an aggregate cluster's balancer; null where there is none (an
   *     aggregate's underlying clusters are leaves by construction)
   * @param pickRandom draws on RPC threads: must be thread-safe
   * @param treeRandom seeds pickers, on the SynchronizationContext
   */
  public ClusterChildSwitch(Helper helper, XdsClient xdsClient, RandomGenerator pickRandom, RandomGenerator treeRandom,
      Function<Helper, LoadBalancer> aggregates) {
    this.syncContext = helper.getSynchronizationContext();
    this.delegate = new GracefulSwitchLoadBalancer(helper);
    this.eds = new Kind(h -> new LeafClusterBalancer(h, xdsClient, pickRandom, treeRandom), "EDS");
    this.dns = new Kind(h -> new LeafClusterBalancer(h, xdsClient, pickRandom, treeRandom), "LOGICAL_DNS");
    this.failed = new Kind(FailedCluster::new, "failed");
    this.aggregates = aggregates == null ? null : new Kind(aggregates, "aggregate");
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    LoadBalancer.Factory kind;
    if (config instanceof LeafClusterConfig leaf) {
      kind = leaf.cluster().logicalDns().isPresent() ? dns : eds;
    } else if (config instanceof FailedCluster.Config) {
      kind = failed;
    } else {
      kind = aggregates == null ? eds : aggregates; // the kind's balancer answers a wrong config
    }
    Object switchConfig = GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(kind, config);
    return delegate.acceptResolvedAddresses(
        resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(switchConfig).build());
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.handleNameResolutionError(error);
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.requestConnection();
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    delegate.shutdown();
  }

  /** One kind; equal to itself only, so a switch happens only when the kind changes. */
  private static final class Kind extends LoadBalancer.Factory {
    private final Function<Helper, LoadBalancer> create;
    private final String name;

    Kind(Function<Helper, LoadBalancer> create, String name) {
      this.create = create;
      this.name = name;
    }

    @Override
    public LoadBalancer newLoadBalancer(Helper helper) {
      return create.apply(helper);
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
