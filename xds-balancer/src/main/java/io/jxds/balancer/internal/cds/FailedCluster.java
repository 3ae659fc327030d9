package io.jxds.balancer.internal.cds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.Objects;

/**
 * A cluster that cannot be served (it does not exist, or its first version never came): reports
 * TRANSIENT_FAILURE with the reason, so that a priority above it moves on (an aggregate cluster's
 * underlying cluster, gRFC A37).
 */
public final class FailedCluster extends LoadBalancer {
  /**
   * The config: why.
   *
   * @param cluster the cluster's name
   * @param status the UNAVAILABLE status RPCs get, naming the cluster
   */
  public record Config(String cluster, Status status) {
    public Config {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(status, "status");
    }
  }

  private final Helper helper;
  private Status published;

  FailedCluster(Helper helper) {
    this.helper = helper;
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    helper.getSynchronizationContext().throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof Config config)) {
      return WrongConfig.status("failed cluster", "a FailedCluster.Config", lbConfig);
    }
    if (published == null || !Objects.equals(published.getDescription(), config.status().getDescription())) {
      published = config.status();
      helper.updateBalancingState(ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(config.status()));
    }
    return Status.OK;
  }

  @Override
  public void handleNameResolutionError(Status error) {}

  @Override
  public void shutdown() {}
}
