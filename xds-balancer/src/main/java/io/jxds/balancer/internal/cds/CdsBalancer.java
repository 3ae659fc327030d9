package io.jxds.balancer.internal.cds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.aggregate.AggregateBalancer;
import io.jxds.balancer.internal.aggregate.AggregateConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.tree.ResourceAbsence;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDS layer for one cluster: watches the Cluster resource and runs, by its kind, the EDS layer
 * under it (EDS or LOGICAL_DNS, {@link LeafClusterBalancer}) or an aggregate cluster's tree
 * ({@link AggregateBalancer}, gRFC A37/A75).
 *
 * <ul>
 *   <li>The first good {@link ClusterUpdate} creates the child; later ones update it (a new EDS
 *       service name re-watches endpoints, a new {@code max_requests} or endpoint-picking policy
 *       applies in place). A change of kind (EDS, LOGICAL_DNS, aggregate) hands over gracefully:
 *       the old child serves until the new one is ready ({@link ClusterChildSwitch}).
 *   <li>The cluster does not exist (timer or deletion): TRANSIENT_FAILURE naming it, child closed;
 *       it comes back if the cluster reappears.
 *   <li>An error before any data: TRANSIENT_FAILURE with the error. With data: keep serving.
 *   <li>Upstream TLS (gRFC A29): applied by the leaf (see {@link LeafClusterBalancer}).
 * </ul>
 *
 * <p>Everything runs on the channel's {@code SynchronizationContext}: the watcher is registered
 * with it as executor.
 */
public final class CdsBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(CdsBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final XdsClient xdsClient;
  private final String cluster;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private ClusterPolicyConfig config;
  private WatchHandle watch;
  private ClusterUpdate current;
  private ClusterChildSwitch child;
  private boolean shutdown;

  /**
   * @param pickRandom draws drops on RPC threads: must be thread-safe
   * @param treeRandom seeds the priority tree's pickers, on the SynchronizationContext
   */
  public CdsBalancer(
      Helper helper, XdsClient xdsClient, String cluster, RandomGenerator pickRandom, RandomGenerator treeRandom) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.xdsClient = xdsClient;
    this.cluster = cluster;
    this.pickRandom = pickRandom;
    this.treeRandom = treeRandom;
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof ClusterPolicyConfig newConfig)) {
      return WrongConfig.status("cluster " + cluster, "an xds_cluster", lbConfig);
    }
    if (newConfig.equals(config)) {
      return Status.OK; // a repeated identical config changes nothing
    }
    config = newConfig;
    if (watch == null) {
      helper.updateBalancingState(ConnectivityState.CONNECTING, QueuingPicker.INSTANCE);
      watch = xdsClient.watchCluster(cluster, new ClusterWatcher(), syncContext);
    } else if (current != null && child != null) {
      updateChild(); // new timers for the priority layer
    }
    return Status.OK;
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    // Addresses from the name resolver mean nothing to xds_cluster; once configured, the control
    // plane decides. Only before the first config does the error reach RPCs.
    if (config == null) {
      fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + ": " + error.getDescription())
          .withCause(error.getCause()));
    }
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (child != null) {
      child.requestConnection();
    }
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    if (watch != null) {
      watch.cancel();
      watch = null;
    }
    closeChild();
  }

  private void onCluster(ClusterUpdate update) {
    if (shutdown) {
      return;
    }
    current = update;
    if (child == null) {
      child = new ClusterChildSwitch(helper, xdsClient, pickRandom, treeRandom,
          h -> new AggregateBalancer(h, xdsClient, pickRandom, treeRandom));
    }
    updateChild();
  }

  private void updateChild() {
    Object childConfig = current.aggregate().isPresent()
        ? new AggregateConfig(cluster, current.aggregate().get(), config)
        : new LeafClusterConfig(current, config);
    Status status = child.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(childConfig)
        .build());
    if (!status.isOk()) {
      logger.warn("cluster {}: its child rejected the config: {}", cluster, status);
    }
  }

  private void onDoesNotExist() {
    if (shutdown) {
      return;
    }
    current = null;
    closeChild();
    fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + " does not exist"
        + ResourceAbsence.why(xdsClient, ResourceTypes.CLUSTER_TYPE_URL, cluster)));
  }

  private void onError(Status error) {
    if (shutdown) {
      return;
    }
    if (current == null && child == null) {
      fail(error);
    } else {
      // The last good cluster stays valid (the client keeps it cached): keep serving.
      logger.debug("cluster {}: {} (still serving the last good version)", cluster, error.getDescription());
    }
  }

  private void fail(Status status) {
    helper.updateBalancingState(
        ConnectivityState.TRANSIENT_FAILURE, new FailingPicker(status));
  }

  private void closeChild() {
    if (child != null) {
      child.shutdown();
      child = null;
    }
  }

  private final class ClusterWatcher implements ResourceWatcher<ClusterUpdate> {
    @Override
    public void onUpdate(ClusterUpdate value) {
      syncContext.throwIfNotInThisSynchronizationContext();
      onCluster(value);
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      syncContext.throwIfNotInThisSynchronizationContext();
      onDoesNotExist();
    }

    @Override
    public void onError(Status error) {
      syncContext.throwIfNotInThisSynchronizationContext();
      CdsBalancer.this.onError(error);
    }
  }
}
