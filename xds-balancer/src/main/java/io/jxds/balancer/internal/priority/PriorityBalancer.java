package io.jxds.balancer.internal.priority;

import static io.grpc.ConnectivityState.CONNECTING;
import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.jxds.balancer.internal.locality.LocalityGroup;
import io.jxds.balancer.internal.picker.FailingPicker;
import io.jxds.balancer.internal.picker.QueuingPicker;
import io.jxds.balancer.internal.picker.ThreadLocalRandomGenerator;
import io.jxds.balancer.internal.tree.ChildHelper;
import io.jxds.balancer.internal.tree.PublishedState;
import io.jxds.balancer.internal.tree.WrongConfig;
import io.jxds.client.internal.DurationFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster's priorities (gRFC A56, with A115's immediate removal): a child per priority
 * ({@link PriorityChildBalancer}: localities by weight, or one hash ring over the priority, by the
 * cluster's policy), started lazily from the highest down, only as far as needed.
 *
 * <ul>
 *   <li>Each started child gets a failover timer ({@link PriorityConfig#failoverTimeout()}). If
 *       the child reports TRANSIENT_FAILURE, or the timer fires before it is READY, the next
 *       priority is started while the failed one keeps trying. The timer restarts when a child
 *       goes to CONNECTING only if it was READY or IDLE more recently than TRANSIENT_FAILURE.
 *   <li>The channel gets the highest child that is READY or IDLE; while none is, the child being
 *       started (its picker queues RPCs); when every priority has failed, a TRANSIENT_FAILURE
 *       picker naming the cluster and the last error.
 *   <li>Failback: a higher child that becomes READY again is used at once; the lower ones are
 *       deactivated, and closed after {@link PriorityConfig#childRetention()} unless needed again.
 *       Children whose priority disappears from the config are closed at once.
 *   <li>A child's identity follows its localities ({@link PriorityChildNames}), so renumbered
 *       priorities keep their connections.
 *   <li>State is pushed to the parent only when the state or the picker changed.
 * </ul>
 *
 * <p>The same layer serves an aggregate cluster (gRFC A75) with a {@link NamedPriorityConfig}: one
 * child per underlying cluster, named by it, made by the {@link ChildFactory} given.
 *
 * <p>Runs on the channel's SynchronizationContext (the helper's); timers are scheduled through it
 * on the helper's scheduled executor. Not thread-safe otherwise.
 */
public final class PriorityBalancer extends LoadBalancer {
  private static final Logger logger = LoggerFactory.getLogger(PriorityBalancer.class);

  private final Helper helper;
  private final SynchronizationContext syncContext;
  private final PublishedState published;
  private final ChildFactory childFactory;
  private final PriorityChildNames childNames = new PriorityChildNames();
  private final Map<String, PriorityChild> children = new HashMap<>();

  /** The current config, whichever kind it came in: what the children are named and given. */
  private Plan config;
  private List<String> priorityNames = List.of();
  private boolean updating;
  private boolean shutdown;
  private String selected;
  private Status lastError;
  private FailingPicker allFailedPicker;
  private Status allFailedCause;
  /** Told each change of the serving priority (-1: none serves), for metrics. */
  private IntConsumer servingPriorityListener = priority -> {};

  /** A balancer whose pickers start at positions drawn from the JDK's default generator. */
  public PriorityBalancer(Helper helper) {
    this(helper, RandomGenerator.getDefault());
  }

  /**
   * @param helper the channel's (or the parent balancer's) helper
   * @param random draws pickers' start positions; used on the SynchronizationContext only
   */
  public PriorityBalancer(Helper helper, RandomGenerator random) {
    this(helper, random, ThreadLocalRandomGenerator.INSTANCE);
  }

  /**
   * @param helper the channel's (or the parent balancer's) helper
   * @param random draws pickers' start positions; used on the SynchronizationContext only
   * @param pickRandom draws on RPC threads (least request's choices, random request hashes): must
   *     be thread-safe
   */
  public PriorityBalancer(Helper helper, RandomGenerator random, RandomGenerator pickRandom) {
    this(helper, policyChildren(Objects.requireNonNull(random, "random"), Objects.requireNonNull(pickRandom)));
  }

  /**
   * Children made by {@code childFactory} instead of LocalityBalancers: for {@link
   * NamedPriorityConfig}s (and tests).
   */
  public PriorityBalancer(Helper helper, ChildFactory childFactory) {
    this.helper = Objects.requireNonNull(helper, "helper");
    this.syncContext = helper.getSynchronizationContext();
    this.published = new PublishedState(helper);
    this.childFactory = Objects.requireNonNull(childFactory, "childFactory");
  }

  private static ChildFactory policyChildren(RandomGenerator random, RandomGenerator pickRandom) {
    return (childHelper, name) -> new PriorityChildBalancer(childHelper, name, random, pickRandom);
  }

  /**
   * Sets who hears the serving priority each time it changes (-1 when none serves).
   *
   * @param listener called on the SynchronizationContext
   */
  public void onServingPriority(IntConsumer listener) {
    this.servingPriorityListener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * Makes the balancer of one priority; it is fed {@link LocalityGroup} configs, or a {@link
   * NamedPriorityConfig}'s child configs.
   */
  @FunctionalInterface
  public interface ChildFactory {
    /** A new child named {@code name}, reporting through {@code helper}. */
    LoadBalancer newChild(Helper helper, String name);
  }

  /** What the layer runs, from either config kind. */
  private record Plan(
      String clusterName, List<Object> priorities, Duration failoverTimeout, Duration childRetention) {}

  /**
   * Accepts a {@link PriorityConfig} as the load-balancing policy config; addresses are ignored
   * (an empty list is normal).
   */
  @Override
  public Status acceptResolvedAddresses(ResolvedAddresses resolvedAddresses) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Object lbConfig = resolvedAddresses.getLoadBalancingPolicyConfig();
    if (lbConfig instanceof PriorityConfig priorityConfig) {
      acceptConfig(priorityConfig);
    } else if (lbConfig instanceof NamedPriorityConfig named) {
      acceptConfig(named);
    } else {
      return WrongConfig.status(name(), "a PriorityConfig", lbConfig);
    }
    return Status.OK;
  }

  /** Applies a new config: renames nothing, closes removed priorities, then re-chooses. */
  public void acceptConfig(PriorityConfig newConfig) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Objects.requireNonNull(newConfig, "newConfig");
    if (shutdown) {
      return;
    }
    List<String> names = childNames.assign(newConfig.clusterName(), newConfig.priorities());
    apply(new Plan(newConfig.clusterName(), List.copyOf(newConfig.priorities()), newConfig.failoverTimeout(),
        newConfig.childRetention()), names);
  }

  /** Applies children the parent names: a child keeps its name, and its balancer, across configs. */
  public void acceptConfig(NamedPriorityConfig newConfig) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Objects.requireNonNull(newConfig, "newConfig");
    if (shutdown) {
      return;
    }
    List<String> names = new ArrayList<>();
    List<Object> configs = new ArrayList<>();
    for (NamedPriorityConfig.Child child : newConfig.children()) {
      names.add(child.name());
      configs.add(child.config());
    }
    apply(new Plan(newConfig.clusterName(), configs, newConfig.failoverTimeout(), newConfig.childRetention()),
        names);
  }

  private void apply(Plan newConfig, List<String> names) {
    updating = true;
    try {
      // gRFC A115: a child whose priority left the config is closed at once.
      for (String name : new ArrayList<>(children.keySet())) {
        if (!names.contains(name)) {
          logger.debug("cluster {}: priority child {} removed", newConfig.clusterName(), name);
          children.remove(name).shutdown();
        }
      }
      config = newConfig;
      priorityNames = names;
      for (int i = 0; i < names.size(); i++) {
        PriorityChild child = children.get(names.get(i));
        if (child != null) {
          child.accept(newConfig.priorities().get(i));
        }
      }
    } finally {
      updating = false;
    }
    choosePriority();
  }

  @Override
  public void handleNameResolutionError(Status error) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (children.isEmpty()) {
      publish(TRANSIENT_FAILURE, new FailingPicker(Status.UNAVAILABLE
          .withDescription(name() + ": " + FailingPicker.describe(error))
          .withCause(error.getCause())));
      return;
    }
    for (PriorityChild child : children.values()) {
      child.balancer.handleNameResolutionError(error);
    }
  }

  @Override
  public void requestConnection() {
    syncContext.throwIfNotInThisSynchronizationContext();
    PriorityChild child = selected == null ? null : children.get(selected);
    if (child != null) {
      child.balancer.requestConnection();
    }
  }

  @Override
  public void shutdown() {
    syncContext.throwIfNotInThisSynchronizationContext();
    shutdown = true;
    for (PriorityChild child : children.values()) {
      child.shutdown();
    }
    children.clear();
  }

  /**
   * gRFC A56's choice, idempotent: walk down from priority 0, starting the first missing child
   * and reactivating those passed; stop at a child that is READY or IDLE (and deactivate those
   * below it) or whose failover timer still runs; else use the first CONNECTING child; else
   * every priority has failed.
   */
  private void choosePriority() {
    if (shutdown || config == null) {
      return;
    }
    if (priorityNames.isEmpty()) {
      selectFailure(Status.UNAVAILABLE.withDescription(
          "cluster " + config.clusterName() + ": priority policy has empty priority list"));
      return;
    }
    for (int i = 0; i < priorityNames.size(); i++) {
      String name = priorityNames.get(i);
      PriorityChild child = children.get(name);
      if (child == null) {
        child = startChild(name, config.priorities().get(i));
      } else {
        child.reactivate();
      }
      if (child.state == READY || child.state == IDLE) {
        select(i, child);
        for (int j = i + 1; j < priorityNames.size(); j++) {
          PriorityChild lower = children.get(priorityNames.get(j));
          if (lower != null) {
            lower.deactivate();
          }
        }
        return;
      }
      if (child.failoverTimerPending()) {
        select(i, child);
        return;
      }
      // TRANSIENT_FAILURE, or CONNECTING past its timer: try the next one; this one keeps trying.
    }
    for (int i = 0; i < priorityNames.size(); i++) {
      PriorityChild child = children.get(priorityNames.get(i));
      if (child.state == CONNECTING) {
        select(i, child);
        return;
      }
    }
    Status cause = lastError == null
        ? Status.UNAVAILABLE.withDescription("no error reported") : lastError;
    if (allFailedPicker == null || cause != allFailedCause) {
      allFailedCause = cause;
      allFailedPicker = new FailingPicker(Status.UNAVAILABLE
          .withDescription("cluster " + config.clusterName() + ": all " + priorityNames.size()
              + " priorities failed; last error: " + FailingPicker.describe(cause))
          .withCause(cause.getCause()));
    }
    if (selected != null || published.state() != TRANSIENT_FAILURE) {
      logger.warn("cluster {}: all {} priorities failed; last error: {}",
          config.clusterName(), priorityNames.size(), FailingPicker.describe(cause));
    }
    selected = null;
    publish(TRANSIENT_FAILURE, allFailedPicker);
  }

  private PriorityChild startChild(String name, Object group) {
    logger.debug("cluster {}: starting priority child {}", config.clusterName(), name);
    PriorityChild child = new PriorityChild(name);
    children.put(name, child);
    child.startFailoverTimer(); // gRFC A56: the timer starts with the child
    boolean wasUpdating = updating;
    updating = true; // the child's first reports are read right after, not re-entrantly
    try {
      child.accept(group);
    } finally {
      updating = wasUpdating;
    }
    return child;
  }

  private void select(int priority, PriorityChild child) {
    if (!child.name.equals(selected)) {
      logger.info("cluster {}: using priority {} ({}, {})",
          config.clusterName(), priority, child.name, child.state);
      selected = child.name;
      servingPriorityListener.accept(priority);
    }
    publish(child.state, child.picker);
  }

  private void selectFailure(Status status) {
    if (selected != null) {
      servingPriorityListener.accept(-1);
    }
    selected = null;
    if (published.state() == TRANSIENT_FAILURE && published.picker() instanceof FailingPicker failing
        && Objects.equals(failing.status().getDescription(), status.getDescription())) {
      return; // unchanged: no push
    }
    logger.warn("{}", status.getDescription());
    publish(TRANSIENT_FAILURE, new FailingPicker(status));
  }

  private void onChildState(PriorityChild child, ConnectivityState newState, SubchannelPicker newPicker) {
    if (child.shutdown) {
      return;
    }
    ConnectivityState previous = child.state;
    child.state = newState;
    child.picker = newPicker;
    switch (newState) {
      case READY, IDLE -> {
        child.cancelFailoverTimer();
        child.readyOrIdleSinceFailure = true;
      }
      case TRANSIENT_FAILURE -> {
        child.cancelFailoverTimer();
        child.readyOrIdleSinceFailure = false;
        lastError = newPicker instanceof FailingPicker failing
            ? failing.status()
            : Status.UNAVAILABLE.withDescription(child.name + " failed");
      }
      case CONNECTING -> {
        // gRFC A56 (grpc-java #12289): a duplicate CONNECTING, or one right after a failure,
        // does not give the child a fresh timer.
        if (previous != CONNECTING && child.readyOrIdleSinceFailure) {
          child.startFailoverTimer();
        }
      }
      default -> {}
    }
    if (!updating) {
      choosePriority();
    }
  }

  private void onFailoverTimeout(PriorityChild child) {
    syncContext.throwIfNotInThisSynchronizationContext();
    child.failoverTimer = null;
    if (child.shutdown || child.deactivated) {
      return;
    }
    logger.info("cluster {}: {} not READY within {}; starting the next priority",
        config.clusterName(), child.name, DurationFormat.format(config.failoverTimeout()));
    choosePriority();
  }

  private void onRetentionExpired(PriorityChild child) {
    syncContext.throwIfNotInThisSynchronizationContext();
    child.retentionTimer = null;
    if (child.shutdown || !child.deactivated) {
      return;
    }
    logger.debug("cluster {}: closing {}, unused for {}", config.clusterName(), child.name,
        DurationFormat.format(config.childRetention()));
    children.remove(child.name);
    child.shutdown();
  }

  private void publish(ConnectivityState newState, SubchannelPicker newPicker) {
    published.publish(name(), newState, newPicker);
  }

  /** How the layer names itself in logs and errors: by its cluster, once it has one. */
  private String name() {
    return config == null ? "priority" : "cluster " + config.clusterName();
  }

  private ScheduledHandle schedule(Runnable task, Duration delay) {
    return syncContext.schedule(
        task, delay.toNanos(), TimeUnit.NANOSECONDS, helper.getScheduledExecutorService());
  }

  @Override
  public String toString() {
    return "PriorityBalancer{" + (config == null ? "" : config.clusterName())
        + ", priorities=" + priorityNames + ", selected=" + selected + ", state=" + published.state() + "}";
  }

  /** A started priority: its balancer, last reported state and its two timers. */
  private final class PriorityChild {
    final String name;
    final LoadBalancer balancer;
    ConnectivityState state = CONNECTING;
    SubchannelPicker picker = QueuingPicker.INSTANCE;
    boolean readyOrIdleSinceFailure;
    boolean deactivated;
    boolean shutdown;
    ScheduledHandle failoverTimer;
    ScheduledHandle retentionTimer;

    PriorityChild(String name) {
      this.name = name;
      ChildHelper childHelper = new ChildHelper(helper, (state, picker) -> onChildState(this, state, picker));
      this.balancer = childFactory.newChild(childHelper, name);
    }

    void accept(Object group) {
      Status status = balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
          .setAddresses(List.of()) // jxds children take their endpoints from the config
          .setLoadBalancingPolicyConfig(group)
          .build());
      if (!status.isOk()) {
        logger.warn("cluster {}: {} rejected its config: {}", config.clusterName(), name, status);
      }
    }

    boolean failoverTimerPending() {
      return failoverTimer != null && failoverTimer.isPending();
    }

    void startFailoverTimer() {
      cancelFailoverTimer();
      failoverTimer = schedule(() -> onFailoverTimeout(this), config.failoverTimeout());
    }

    void cancelFailoverTimer() {
      if (failoverTimer != null) {
        failoverTimer.cancel();
        failoverTimer = null;
      }
    }

    void deactivate() {
      if (deactivated) {
        return;
      }
      logger.debug("cluster {}: deactivating {} for {}", config.clusterName(), name,
          DurationFormat.format(config.childRetention()));
      deactivated = true;
      // The failover timer keeps running (A56, as grpc-java): one that fires while the child is
      // deactivated is ignored, but a child reactivated before then keeps its remaining time.
      retentionTimer = schedule(() -> onRetentionExpired(this), config.childRetention());
    }

    void reactivate() {
      if (!deactivated) {
        return;
      }
      logger.debug("cluster {}: reactivating {}", config.clusterName(), name);
      deactivated = false;
      if (retentionTimer != null) {
        retentionTimer.cancel();
        retentionTimer = null;
      }
    }

    void shutdown() {
      shutdown = true;
      cancelFailoverTimer();
      if (retentionTimer != null) {
        retentionTimer.cancel();
        retentionTimer = null;
      }
      balancer.shutdown();
    }
  }

}
