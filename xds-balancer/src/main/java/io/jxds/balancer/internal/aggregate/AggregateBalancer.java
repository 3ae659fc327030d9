package io.jxds.balancer.internal.aggregate;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.XdsClient;
import io.jxds.balancer.internal.cds.ClusterChildSwitch;
import io.jxds.balancer.internal.cds.FailedCluster;
import io.jxds.balancer.internal.cds.LeafClusterConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.priority.NamedPriorityConfig;
import io.jxds.balancer.internal.priority.PriorityBalancer;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An aggregate cluster (gRFC A37, with A75's corrections): resolves the tree of underlying
 * clusters ({@link AggregateTree}) and runs its leaves, in order, as the children of one priority
 * layer ({@link PriorityBalancer}, gRFC A56): the first leaf that is READY serves, the next one
 * starts when it fails (every endpoint unreachable or reported unhealthy by EDS, the cluster
 * deleted) or its failover timer fires, and traffic goes back when it recovers.
 *
 * <ul>
 *   <li>Each leaf keeps its own LB policy, drops, circuit breaker, load reports, TLS and outlier
 *       detection (gRFC A75): it runs as a plain cluster would ({@link ClusterChildSwitch}), and a
 *       leaf moving between EDS and LOGICAL_DNS hands over gracefully.
 *   <li>A leaf keeps its child, and connections, while it stays in the tree, wherever it moves.
 *   <li>While the tree is being resolved again (a leaf turned into an aggregate whose clusters
 *       have not come yet), the last leaves keep serving.
 *   <li>A loop or an over-deep tree: TRANSIENT_FAILURE, RPCs fail UNAVAILABLE naming the path;
 *       logged once.
 * </ul>
 */
public final class AggregateBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(AggregateBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final XdsClient xdsClient;
  private final RandomGenerator pickRandom;
  private final RandomGenerator treeRandom;
  private AggregateConfig config;
  private AggregateTree tree;
  private PriorityBalancer priorities;
  private List<String> leafNames = List.of();
  private String lastProblem;
  private boolean shutdown;

  /**
   * @param pickRandom draws on RPC threads: must be thread-safe
   * @param treeRandom seeds the leaves' pickers, on the SynchronizationContext
   */
  public AggregateBalancer(
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
    if (!(lbConfig instanceof AggregateConfig newConfig)) {
      return WrongConfig.status(name(), "an AggregateConfig", lbConfig);
    }
    if (shutdown || newConfig.equals(config)) {
      return Status.OK;
    }
    config = newConfig;
    if (tree == null) {
      tree = new AggregateTree(xdsClient, syncContext, this::resolve);
    }
    resolve();
    return Status.OK;
  }

  private void resolve() {
    if (shutdown || config == null) {
      return;
    }
    AggregateTree.Resolution resolution = tree.resolve(config.cluster(), config.aggregate().clusters());
    if (resolution instanceof AggregateTree.Pending pending) {
      logger.debug("cluster {}: waiting for clusters {}", config.cluster(), pending.waitingFor());
    } else if (resolution instanceof AggregateTree.Failed failed) {
      fail(failed.status());
    } else if (resolution instanceof AggregateTree.Leaves leaves) {
      serve(leaves.leaves());
    }
  }

  private void serve(List<AggregateTree.Leaf> leaves) {
    lastProblem = null;
    List<NamedPriorityConfig.Child> children = new ArrayList<>(leaves.size());
    List<String> names = new ArrayList<>(leaves.size());
    for (AggregateTree.Leaf leaf : leaves) {
      names.add(leaf.name());
      Object childConfig = leaf.cluster().isPresent()
          ? new LeafClusterConfig(leaf.cluster().get(), config.policy())
          : new FailedCluster.Config(leaf.name(), leaf.failure());
      children.add(new NamedPriorityConfig.Child(leaf.name(), childConfig));
    }
    if (!names.equals(leafNames)) {
      logger.info("cluster {}: aggregate of {}", config.cluster(), names);
      leafNames = List.copyOf(names);
    }
    if (priorities == null) {
      priorities = new PriorityBalancer(helper,
          (childHelper, name) -> new ClusterChildSwitch(childHelper, xdsClient, pickRandom, treeRandom, null));
    }
    priorities.acceptConfig(new NamedPriorityConfig(
        config.cluster(), children, config.policy().failoverTimeout(), config.policy().childRetention()));
  }

  private void fail(Status status) {
    String problem = "cluster " + config.cluster() + ": " + status.getDescription();
    if (!problem.equals(lastProblem)) {
      logger.warn("{}; failing RPCs", problem);
      lastProblem = problem;
    }
    closePriorities();
    leafNames = List.of();
    helper.updateBalancingState(ConnectivityState.TRANSIENT_FAILURE,
        new FailingPicker(Status.UNAVAILABLE.withDescription(problem)));
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    // The control plane decides; resolver addresses mean nothing here.
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (priorities != null) {
      priorities.requestConnection();
    }
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    if (tree != null) {
      tree.close();
    }
    closePriorities();
  }

  private void closePriorities() {
    if (priorities != null) {
      priorities.shutdown();
      priorities = null;
    }
  }

  private String name() {
    return config == null ? "aggregate cluster" : "cluster " + config.cluster();
  }
}
