package io.jxds.balancer.internal.cds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDS layer for one cluster: watches the Cluster resource and runs the EDS layer under it.
 *
 * <ul>
 *   <li>The first good {@link ClusterUpdate} creates the EDS child; later ones update it (a new
 *       EDS service name re-watches endpoints, a new {@code max_requests} applies in place).
 *   <li>The cluster does not exist (timer or deletion): TRANSIENT_FAILURE naming it, child closed;
 *       it comes back if the cluster reappears.
 *   <li>An error before any data: TRANSIENT_FAILURE with the error. With data: keep serving.
 *   <li>Upstream TLS asked for: TRANSIENT_FAILURE, never plaintext to a backend that expects TLS.
 * </ul>
 *
 * <p>Everything runs on the channel's {@code SynchronizationContext}: the watcher is registered
 * with it as executor.
 */
public final class CdsBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(CdsBalancer.class);

  private final Helper helper;
  private final XdsClient xdsClient;
  private final String cluster;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private ClusterPolicyConfig config;
  private WatchHandle watch;
  private ClusterUpdate current;
  private LoadBalancer eds;
  private boolean shutdown;

  /**
   * @param pickRandom draws drops on RPC threads: must be thread-safe
   * @param treeRandom seeds the priority tree's pickers, on the SynchronizationContext
   */
  public CdsBalancer(
      Helper helper, XdsClient xdsClient, String cluster, RandomGenerator pickRandom, RandomGenerator treeRandom) {
    this.helper = helper;
    this.xdsClient = xdsClient;
    this.cluster = cluster;
    this.pickRandom = pickRandom;
    this.treeRandom = treeRandom;
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    ClusterPolicyConfig newConfig = (ClusterPolicyConfig) resolvedAddresses.getLoadBalancingPolicyConfig();
    if (newConfig.equals(config)) {
      return Status.OK; // a repeated identical config changes nothing
    }
    config = newConfig;
    if (watch == null) {
      helper.updateBalancingState(ConnectivityState.CONNECTING, QueuingPicker.INSTANCE);
      watch = xdsClient.watchCluster(cluster, new ClusterWatcher(), helper.getSynchronizationContext());
    } else if (current != null && eds != null) {
      updateChild(); // new timers for the priority layer
    }
    return Status.OK;
  }

  @Override
  public void handleNameResolutionError(Status error) {
    // Addresses from the name resolver mean nothing to xds_cluster; once configured, the control
    // plane decides. Only before the first config does the error reach RPCs.
    if (config == null) {
      fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + ": " + error.getDescription())
          .withCause(error.getCause()));
    }
  }

  @Override
  public void shutdown() {
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
    if (update.upstreamTls().isPresent()) {
      current = null;
      closeChild();
      logger.warn("cluster {}: asks for upstream TLS, which jxds does not support yet; failing RPCs", cluster);
      fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + ": upstream TLS is not supported yet"));
      return;
    }
    current = update;
    if (eds == null) {
      eds = new EdsBalancer(helper, xdsClient, pickRandom, treeRandom);
    }
    updateChild();
  }

  private void updateChild() {
    EdsConfig edsConfig = new EdsConfig(
        cluster,
        current.edsServiceName(),
        current.maxConcurrentRequests(),
        config.failoverTimeout(),
        config.childRetention(),
        current.lrsEnabled());
    eds.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(edsConfig)
        .build());
  }

  private void onDoesNotExist() {
    if (shutdown) {
      return;
    }
    current = null;
    closeChild();
    fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + " does not exist"
        + EdsBalancer.absenceReason(xdsClient, ResourceTypes.CLUSTER_TYPE_URL, cluster)
        + " (node id " + xdsClient.status().nodeId() + ")"));
  }

  private void onError(Status error) {
    if (shutdown) {
      return;
    }
    if (current == null && eds == null) {
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
    if (eds != null) {
      eds.shutdown();
      eds = null;
    }
  }

  private final class ClusterWatcher implements ResourceWatcher<ClusterUpdate> {
    @Override
    public void onUpdate(ClusterUpdate value) {
      onCluster(value);
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      onDoesNotExist();
    }

    @Override
    public void onError(Status error) {
      CdsBalancer.this.onError(error);
    }
  }
}
