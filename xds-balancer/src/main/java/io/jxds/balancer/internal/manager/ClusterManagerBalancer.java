package io.jxds.balancer.internal.manager;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.balancer.internal.ClusterPolicyConfig;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.tree.ChildHelper;
import io.jxds.balancer.internal.tree.PublishedState;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster manager (gRFC A31's {@code xds_cluster_manager}, ARCHITECTURE.md, "Routing each
 * call"): one {@code xds_cluster} child per cluster of its {@link ClusterManagerConfig}, however
 * many routes name it, and a {@link ClusterManagerPicker} that sends each call to the child of the
 * cluster its route chose.
 *
 * <ul>
 *   <li>A cluster new to the config gets a child at once; until that child reports, its calls
 *       queue ({@link QueuingPicker}), and they keep queuing while it connects: a cluster added to
 *       the routes gets its traffic when READY, with no burst of failures before.
 *   <li>A cluster still in the config keeps its child (and its connections); its config goes to
 *       the child, which applies what changed.
 *   <li>A cluster that leaves the config is shut down at once. The resolver keeps a cluster in the
 *       config while the route table or a call in flight holds it (gRFC A31's reference counts,
 *       {@code io.jxds.balancer.internal.resolver.ClusterRefs}), so a cluster leaves only when no
 *       call can pick it any more.
 *   <li>The channel sees the aggregate: READY if a child is READY, else CONNECTING if one is, else
 *       IDLE if one is, else TRANSIENT_FAILURE (gRPC's multi-child rule); with no cluster at all,
 *       TRANSIENT_FAILURE, picks dropped. A new picker is pushed when a child's state or picker
 *       changed, never for an unchanged aggregate.
 * </ul>
 *
 * <p>Resolved addresses go to every child with its own config, attributes included (the {@code
 * XdsClient} the resolver hands down). Runs on the channel's SynchronizationContext.
 */
public final class ClusterManagerBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(ClusterManagerBalancer.class);
  private static final String NAME = ClusterManagerLoadBalancerProvider.POLICY_NAME;

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final LoadBalancer.Factory childFactory;
  private final PublishedState published;
  /** By cluster name. */
  private final Map<String, Child> children = new LinkedHashMap<>();
  private boolean updating;
  private boolean shutdown;
  /** Whether a child was added or removed, or changed its picker, since the last picker was built. */
  private boolean pickersChanged;

  /**
   * @param helper the channel's helper
   * @param childFactory makes each cluster's {@code xds_cluster} balancer
   */
  public ClusterManagerBalancer(Helper helper, LoadBalancer.Factory childFactory) {
    this.helper = Objects.requireNonNull(helper, "helper");
    this.syncContext = helper.getSynchronizationContext();
    this.childFactory = Objects.requireNonNull(childFactory, "childFactory");
    this.published = new PublishedState(helper);
  }

  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(lbConfig instanceof ClusterManagerConfig config)) {
      return WrongConfig.status(NAME, "a ClusterManagerConfig", lbConfig);
    }
    if (shutdown) {
      return Status.OK;
    }
    updating = true;
    Status result = Status.OK;
    try {
      removeChildrenNotIn(config);
      for (Map.Entry<String, ClusterPolicyConfig> entry : config.clusters().entrySet()) {
        Child child = children.get(entry.getKey());
        if (child == null) {
          child = new Child(entry.getKey());
          children.put(entry.getKey(), child);
          pickersChanged = true;
          logger.debug("{}: cluster {} added", NAME, entry.getKey());
        }
        Status accepted = child.balancer.acceptResolvedAddresses(
            resolvedAddresses.toBuilder().setLoadBalancingPolicyConfig(entry.getValue()).build());
        if (!accepted.isOk() && result.isOk()) {
          // The child says why (no xDS client yet, say); the others keep going, the channel retries.
          result = accepted;
        }
      }
    } finally {
      updating = false;
    }
    publish();
    return result;
  }

  private void removeChildrenNotIn(ClusterManagerConfig config) {
    for (Iterator<Child> it = children.values().iterator(); it.hasNext(); ) {
      Child child = it.next();
      if (!config.clusters().containsKey(child.cluster)) {
        it.remove();
        pickersChanged = true;
        logger.debug("{}: cluster {} removed", NAME, child.cluster);
        child.balancer.shutdown();
      }
    }
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (children.isEmpty()) {
      published.publish(NAME, TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE.withDescription(
          NAME + ": name resolution failed: " + FailingPicker.describe(error)).withCause(error.getCause())));
      return;
    }
    for (Child child : children.values()) {
      child.balancer.handleNameResolutionError(error);
    }
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (Child child : children.values()) {
      child.balancer.requestConnection();
    }
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    for (Child child : children.values()) {
      child.balancer.shutdown();
    }
    children.clear();
  }

  private void onChildState(Child child, ConnectivityState state, SubchannelPicker picker) {
    if (shutdown || children.get(child.cluster) != child) {
      return; // a removed child's late news
    }
    child.state = state;
    pickersChanged |= child.picker != picker;
    child.picker = picker;
    if (!updating) {
      publish();
    }
  }

  private void publish() {
    if (shutdown) {
      return;
    }
    if (children.isEmpty()) {
      published.publish(NAME, TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE.withDescription(
          NAME + ": the route table names no cluster")));
      return;
    }
    boolean ready = false;
    boolean connecting = false;
    boolean idle = false;
    for (Child child : children.values()) {
      ready |= child.state == READY;
      connecting |= child.state == CONNECTING;
      idle |= child.state == IDLE;
    }
    ConnectivityState state = ready ? READY : connecting ? CONNECTING : idle ? IDLE : TRANSIENT_FAILURE;
    if (pickersChanged || !(published.picker() instanceof ClusterManagerPicker)) {
      Map<String, SubchannelPicker> pickers = new HashMap<>();
      for (Child child : children.values()) {
        pickers.put(child.cluster, child.picker);
      }
      pickersChanged = false;
      published.publish(NAME, state, new ClusterManagerPicker(pickers));
    } else {
      published.publish(NAME, state, published.picker());
    }
  }

  /** One cluster's {@code xds_cluster} balancer and what it reported last. */
  private final class Child {
    final String cluster;
    final LoadBalancer balancer;
    ConnectivityState state = CONNECTING;
    SubchannelPicker picker = QueuingPicker.INSTANCE;

    Child(String cluster) {
      this.cluster = cluster;
      this.balancer = childFactory.newLoadBalancer(
          new ChildHelper(helper, (state, picker) -> onChildState(this, state, picker)));
    }
  }
}
