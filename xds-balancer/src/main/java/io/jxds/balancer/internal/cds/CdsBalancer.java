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
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.tls.ClusterTlsBinding;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.balancer.internal.tree.ResourceAbsence;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDS layer for one cluster: watches the Cluster resource and runs the EDS layer under it.
 *
 * <ul>
 *   <li>The first good {@link ClusterUpdate} creates the EDS child; later ones update it (a new
 *       EDS service name re-watches endpoints, a new {@code max_requests} or endpoint-picking
 *       policy applies in place).
 *   <li>The cluster does not exist (timer or deletion): TRANSIENT_FAILURE naming it, child closed;
 *       it comes back if the cluster reappears.
 *   <li>An error before any data: TRANSIENT_FAILURE with the error. With data: keep serving.
 *   <li>Upstream TLS (gRFC A29): the cluster's {@code transport_socket} is applied to new connections
 *       through the channel's {@code XdsClusterCredentials}; on other credentials a TLS cluster, and on
 *       those credentials a plaintext cluster, is TRANSIENT_FAILURE saying why (see
 *       {@link ClusterTlsBinding}): never plaintext to a backend that expects TLS.
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
  private LoadBalancer eds;
  private boolean shutdown;
  private final ClusterTlsBinding tls;
  /** The last reason TLS could not be applied, so that it is logged once. */
  private String lastTlsProblem;

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
    this.tls = new ClusterTlsBinding(helper, xdsClient, cluster);
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
    } else if (current != null && eds != null) {
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
    if (eds != null) {
      eds.requestConnection();
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
    tls.close();
  }

  private void onCluster(ClusterUpdate update) {
    if (shutdown) {
      return;
    }
    if (update.aggregate().isPresent()) {
      current = null;
      closeChild();
      fail(Status.UNAVAILABLE.withDescription("cluster " + cluster + " is an aggregate cluster, not served yet"));
      return;
    }
    Optional<String> tlsProblem = tls.apply(update.upstreamTls());
    if (tlsProblem.isPresent()) {
      current = null;
      closeChild();
      if (!tlsProblem.get().equals(lastTlsProblem)) {
        logger.warn("{}; failing RPCs", tlsProblem.get());
        lastTlsProblem = tlsProblem.get();
      }
      fail(Status.UNAVAILABLE.withDescription(tlsProblem.get()));
      return;
    }
    lastTlsProblem = null;
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
        new EndpointPolicy(current.lbPolicy(), config.hashHeader()),
        current.lrsEnabled(),
        current.outlierDetection(),
        current.logicalDns());
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
        + ResourceAbsence.why(xdsClient, ResourceTypes.CLUSTER_TYPE_URL, cluster)));
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
