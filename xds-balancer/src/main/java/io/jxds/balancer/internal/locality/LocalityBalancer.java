package io.jxds.balancer.internal.locality;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.endpoint.EndpointBalancer;
import io.jxds.balancer.internal.endpoint.EndpointGroup;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.picker.SmoothWrrSequence;
import io.jxds.balancer.internal.picker.ThreadLocalRandomGenerator;
import io.jxds.balancer.internal.tree.ChildHelper;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.balancer.internal.tree.PublishedState;
import io.jxds.balancer.internal.tree.WrongConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The localities of one priority: one {@link EndpointBalancer} child per locality, aggregated by
 * locality weight (gRFC A28's weighted_target, without its string configs).
 *
 * <ul>
 *   <li>Children are keyed by {@link LocalityId}: a locality present before and after an update
 *       keeps its child, which diffs its own endpoints; a removed locality's child is shut down.
 *   <li>State: READY if any child is READY; else CONNECTING if any is; else IDLE if any is; else
 *       TRANSIENT_FAILURE, with the picker of the child that failed last.
 *   <li>The READY picker ({@link WeightedLocalityPicker}) spreads picks over READY children only,
 *       so a locality with no usable or no reachable endpoint takes no traffic.
 *   <li>Child updates that arrive while a config is applied are folded into one state push.
 *   <li>Every subchannel of a child carries the child's locality ({@link EndpointLocality}), for
 *       load reports and metrics.
 * </ul>
 *
 * <p>Runs on the channel's SynchronizationContext; not thread-safe otherwise.
 */
public final class LocalityBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(LocalityBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final PublishedState published;
  private final String name;
  private final RandomGenerator random;
  private final RandomGenerator pickRandom;

  private LbPolicy endpointPolicy = LbPolicy.ROUND_ROBIN;
  private Map<LocalityId, LocalityChild> children = new LinkedHashMap<>();
  private boolean updating;
  private boolean shutdown;
  private WeightedLocalityPicker readyPicker;
  private long[] orderWeights;
  private int[] order;
  private LocalityChild lastFailed;

  /**
   * @param helper the parent's helper
   * @param name the priority child's name, e.g. {@code cluster[child1]}, for logs and errors
   * @param random draws each picker's start position; used on the SynchronizationContext only
   * @param pickRandom draws least request's choices on RPC threads: must be thread-safe
   */
  public LocalityBalancer(Helper helper, String name, RandomGenerator random, RandomGenerator pickRandom) {
    this.helper = Objects.requireNonNull(helper, "helper");
    this.syncContext = helper.getSynchronizationContext();
    this.published = new PublishedState(helper);
    this.name = Objects.requireNonNull(name, "name");
    this.random = Objects.requireNonNull(random, "random");
    this.pickRandom = Objects.requireNonNull(pickRandom, "pickRandom");
  }

  /** A balancer whose least-request picks draw from the RPC thread's own generator. */
  public LocalityBalancer(Helper helper, String name, RandomGenerator random) {
    this(helper, name, random, ThreadLocalRandomGenerator.INSTANCE);
  }

  /**
   * Accepts a {@link LocalityGroup} as the load-balancing policy config; addresses are ignored
   * (an empty list is normal).
   */
  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object config = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (!(config instanceof LocalityGroup group)) {
      return WrongConfig.status(name, "a LocalityGroup", config);
    }
    acceptConfig(group);
    return Status.OK;
  }

  /** Applies a new set of localities, keeping the children of unchanged ones untouched. */
  public void acceptConfig(LocalityGroup group) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    LbPolicy previousPolicy = endpointPolicy;
    endpointPolicy = group.policy().lbPolicy();
    boolean policyChanged = !endpointPolicy.equals(previousPolicy);
    updating = true;
    try {
      Map<LocalityId, LocalityChild> next = new LinkedHashMap<>();
      for (LocalityConfig locality : group.localities()) {
        if (next.containsKey(locality.id())) {
          logger.debug("{}: locality {} listed twice; the first wins", name, locality.id());
          continue;
        }
        LocalityChild child = children.remove(locality.id());
        if (child == null) {
          child = new LocalityChild(locality);
          next.put(locality.id(), child);
          child.balancer.acceptConfig(new EndpointGroup(locality.endpoints(), endpointPolicy));
        } else {
          LocalityConfig previous = child.config;
          child.config = locality;
          next.put(locality.id(), child);
          if (policyChanged || !previous.endpoints().equals(locality.endpoints())) {
            child.balancer.acceptConfig(new EndpointGroup(locality.endpoints(), endpointPolicy));
          }
        }
      }
      for (LocalityChild removed : children.values()) {
        logger.debug("{}: locality {} removed", name, removed.config.id());
        removed.shutdown();
      }
      children = next;
    } finally {
      updating = false;
    }
    updateState();
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (children.isEmpty()) {
      publish(TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE.withDescription(
          name + ": no localities; " + FailingPicker.describe(error)).withCause(error.getCause())));
      return;
    }
    for (LocalityChild child : children.values()) {
      child.balancer.handleNameResolutionError(error);
    }
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (LocalityChild child : children.values()) {
      child.balancer.requestConnection();
    }
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    for (LocalityChild child : children.values()) {
      child.shutdown();
    }
    children = new LinkedHashMap<>();
  }

  private void onChildState(LocalityChild child, ConnectivityState newState, SubchannelPicker newPicker) {
    if (child.shutdown) {
      return;
    }
    child.state = newState;
    child.picker = newPicker;
    if (newState == TRANSIENT_FAILURE) {
      lastFailed = child;
    }
    if (!updating) {
      updateState();
    }
  }

  /** The one place that recomputes the aggregate state and picker. */
  private void updateState() {
    if (shutdown) {
      return;
    }
    List<SubchannelPicker> readyPickers = new ArrayList<>();
    List<LocalityChild> ready = new ArrayList<>();
    boolean connecting = false;
    boolean idle = false;
    for (LocalityChild child : children.values()) {
      if (child.state == READY) {
        ready.add(child);
        readyPickers.add(child.picker);
      } else if (child.state == CONNECTING) {
        connecting = true;
      } else if (child.state == IDLE) {
        idle = true;
      }
    }
    if (!ready.isEmpty()) {
      long[] weights = new long[ready.size()];
      for (int i = 0; i < weights.length; i++) {
        weights[i] = ready.get(i).config.weight();
      }
      if (readyPicker == null || !readyPicker.serves(readyPickers, weights)) {
        if (order == null || !Arrays.equals(orderWeights, weights)) {
          order = SmoothWrrSequence.build(weights); // only when the READY weights change
          orderWeights = weights;
        }
        readyPicker = new WeightedLocalityPicker(readyPickers, weights, order, random);
      }
      publish(READY, readyPicker);
    } else if (connecting) {
      publish(CONNECTING, QueuingPicker.INSTANCE);
    } else if (idle) {
      publish(IDLE, QueuingPicker.INSTANCE);
    } else {
      publish(TRANSIENT_FAILURE, failingPicker());
    }
  }

  private SubchannelPicker failingPicker() {
    if (lastFailed != null && !lastFailed.shutdown && lastFailed.picker instanceof FailingPicker) {
      return lastFailed.picker; // it names the locality and its last connection error
    }
    for (LocalityChild child : children.values()) {
      if (child.picker instanceof FailingPicker) {
        return child.picker;
      }
    }
    return new FailingPicker(Status.UNAVAILABLE.withDescription(name + ": no localities"));
  }

  private void publish(ConnectivityState newState, SubchannelPicker newPicker) {
    published.publish(name, newState, newPicker);
  }

  @Override
  public String toString() {
    return "LocalityBalancer{" + name + ", localities=" + children.size() + ", state=" + published.state() + "}";
  }

  /** One locality: its config, its endpoint leaf and the leaf's last reported state. */
  private final class LocalityChild {
    LocalityConfig config;
    final EndpointBalancer balancer;
    ConnectivityState state = CONNECTING;
    SubchannelPicker picker = QueuingPicker.INSTANCE;
    boolean shutdown;

    LocalityChild(LocalityConfig config) {
      this.config = config;
      ChildHelper childHelper = new ChildHelper(helper, (state, picker) -> onChildState(this, state, picker));
      // A child serves one locality for life: an endpoint moved to another locality gets that
      // locality's subchannel.
      this.balancer = new EndpointBalancer(childHelper, name + " " + config.id(), config.id(), random, pickRandom);
    }

    void shutdown() {
      shutdown = true;
      balancer.shutdown();
    }
  }
}
