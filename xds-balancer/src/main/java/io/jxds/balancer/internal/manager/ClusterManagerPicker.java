package io.jxds.balancer.internal.manager;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Status;
import java.util.Map;

/**
 * Sends each pick to the picker of the cluster its call chose ({@link ChosenCluster}), whatever
 * that child's state (gRFC A28: the route decides, not the cluster's health): a child still
 * connecting queues the call, a failed one fails it with its own status. A call whose cluster the
 * manager does not serve is dropped, wait-for-ready or not, with UNAVAILABLE naming the cluster,
 * rather than left waiting for a child that no update will create (gRFC A31). An immutable
 * snapshot of the children's pickers; a pick is one map lookup.
 */
final class ClusterManagerPicker extends SubchannelPicker {
  private static final PickResult NO_CLUSTER = PickResult.withDrop(Status.UNAVAILABLE.withDescription(
      ClusterManagerLoadBalancerProvider.POLICY_NAME + ": the call carries no chosen cluster (this policy serves"
          + " calls routed by jxds's xds: or jxds: resolver)"));

  private final Map<String, SubchannelPicker> byCluster;

  /** @param byCluster each child's picker by cluster name; kept as given (an unmodifiable copy) */
  ClusterManagerPicker(Map<String, SubchannelPicker> byCluster) {
    this.byCluster = Map.copyOf(byCluster);
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    ChosenCluster chosen = args.getCallOptions().getOption(ChosenCluster.KEY);
    if (chosen == null) {
      return NO_CLUSTER;
    }
    String cluster = chosen.cluster();
    SubchannelPicker child = byCluster.get(cluster);
    if (child == null) {
      return PickResult.withDrop(Status.UNAVAILABLE.withDescription(ClusterManagerLoadBalancerProvider.POLICY_NAME
          + ": cluster " + cluster + " is not among the route table's clusters"));
    }
    return child.pickSubchannel(args);
  }

  @Override
  public String toString() {
    return "ClusterManagerPicker" + byCluster;
  }
}
