package io.jxds.balancer.internal.cds;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.XdsClient;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.tls.ClusterTlsBinding;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One EDS or LOGICAL_DNS cluster's balancer: applies its {@code transport_socket} (gRFC A29, see
 * {@link ClusterTlsBinding}) and runs the EDS layer under it with the cluster's own endpoint
 * policy, circuit breaker, load reports and outlier detection. The root of a plain cluster's tree,
 * and each underlying cluster's of an aggregate (gRFC A75).
 *
 * <p>A TLS setting the channel cannot honour fails RPCs saying why, the EDS layer closed: never
 * plaintext to a backend that expects TLS.
 */
public final class LeafClusterBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(LeafClusterBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final XdsClient xdsClient;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private ClusterTlsBinding tls;
  private LoadBalancer eds;
  private LeafClusterConfig config;
  /** The last reason TLS could not be applied, so that it is logged once. */
  private String lastTlsProblem;

  /**
   * @param pickRandom draws drops on RPC threads: must be thread-safe
   * @param treeRandom seeds the priority tree's pickers, on the SynchronizationContext
   */
  public LeafClusterBalancer(
      Helper helper, XdsClient xdsClient, RandomGenerator pickRandom, RandomGenerator treeRandom) {
    this.helper = helper;
    this.syncContext = helper.getSynchronizationContext();
    this.xdsClient = xdsClient;
    this.pickRandom = pickRandom;
    this.treeRandom = treeRandom;
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof LeafClusterConfig newConfig)) {
      return WrongConfig.status(name(), "a LeafClusterConfig", lbConfig);
    }
    if (newConfig.equals(config)) {
      return Status.OK;
    }
    config = newConfig;
    ClusterUpdate cluster = newConfig.cluster();
    if (tls == null) {
      tls = new ClusterTlsBinding(helper, xdsClient, cluster.clusterName());
    }
    Optional<String> tlsProblem = tls.apply(cluster.upstreamTls());
    if (tlsProblem.isPresent()) {
      closeEds();
      if (!tlsProblem.get().equals(lastTlsProblem)) {
        logger.warn("{}; failing RPCs", tlsProblem.get());
        lastTlsProblem = tlsProblem.get();
      }
      helper.updateBalancingState(ConnectivityState.TRANSIENT_FAILURE,
          new FailingPicker(Status.UNAVAILABLE.withDescription(tlsProblem.get())));
      return Status.OK;
    }
    lastTlsProblem = null;
    if (eds == null) {
      eds = new EdsBalancer(helper, xdsClient, pickRandom, treeRandom);
    }
    ClusterPolicyConfig policy = newConfig.policy();
    EdsConfig edsConfig = new EdsConfig(
        cluster.clusterName(),
        cluster.edsServiceName(),
        cluster.maxConcurrentRequests(),
        policy.failoverTimeout(),
        policy.childRetention(),
        new EndpointPolicy(cluster.lbPolicy(), policy.hashHeader()),
        cluster.lrsEnabled(),
        cluster.outlierDetection(),
        cluster.logicalDns());
    return eds.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of())
        .setLoadBalancingPolicyConfig(edsConfig)
        .build());
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    // The control plane decides; resolver addresses mean nothing here.
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
    closeEds();
    if (tls != null) {
      tls.close();
    }
  }

  private void closeEds() {
    if (eds != null) {
      eds.shutdown();
      eds = null;
    }
  }

  private String name() {
    return config == null ? "cluster" : "cluster " + config.cluster().clusterName();
  }
}
