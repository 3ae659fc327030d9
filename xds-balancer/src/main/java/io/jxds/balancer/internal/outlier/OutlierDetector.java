package io.jxds.balancer.internal.outlier;

import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.SynchronizationContext;
import io.grpc.util.ForwardingLoadBalancerHelper;
import io.jxds.api.model.OutlierDetection;
import io.jxds.balancer.internal.metrics.ClusterMetrics;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Outlier detection for one cluster (gRFC A50), placed above the priorities as gRFC A75 places it:
 * one {@link EndpointTracker} per endpoint of the cluster's assignment, whatever priority or
 * locality lists it, so an endpoint that moves keeps its counts, its ejection and its multiplier.
 *
 * <ul>
 *   <li>{@link #helper} wraps the helper the cluster's balancers create subchannels with: each
 *       subchannel is an {@link OutlierSubchannel} of its endpoint, reporting TRANSIENT_FAILURE
 *       while the endpoint is ejected, so the endpoint leaf and the hash balancer pick it no more,
 *       and a locality or priority whose endpoints are all ejected is TRANSIENT_FAILURE to the
 *       layer above, which fails over as it does for unreachable endpoints.
 *   <li>{@link #counter} gives the picker the endpoint's {@link CallCounter}, which the stream
 *       tracer the EDS picker attaches anyway bumps when the stream closes; nothing when no
 *       algorithm is configured (A50: no counting then).
 *   <li>The sweep ({@link EjectionSweep}) runs every {@code interval}. A new config neither zeroes
 *       the counters nor restarts the interval (A50: the timer start is kept, and the next sweep
 *       comes {@code interval} after the last one, at once if that is past); only the first config
 *       with an algorithm, or one after a config without, starts afresh. A config without an
 *       algorithm stops the sweeps and lets every ejected endpoint back.
 * </ul>
 *
 * <p>Time is the timer's: the scheduler (the channel's, or a fake clock in tests) says how long
 * the pending sweep still has to wait, which gives the time elapsed since it was scheduled, so
 * that ejection times and a new config's delay follow the same clock as the sweeps.
 *
 * <p>On the SynchronizationContext, except {@link CallCounter#record} on RPC threads.
 */
public final class OutlierDetector {
  private static final Logger logger = LoggerFactory.getLogger(OutlierDetector.class);

  private final String cluster;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final RandomGenerator random;
  private ClusterMetrics metrics = ClusterMetrics.NONE;
  private final Map<Set<SocketAddress>, EndpointTracker> endpoints = new LinkedHashMap<>();
  private final Map<SocketAddress, EndpointTracker> byAddress = new LinkedHashMap<>();
  /** The trackers in assignment order, for the sweep: an array list walks faster than the map. */
  private List<EndpointTracker> ordered = List.of();
  private OutlierDetection config;
  /** A50's "timer start timestamp": the last sweep, or the start; meaningful while {@code started}. */
  private long lastStart;
  private boolean started;
  /** The pending sweep, scheduled at time {@code anchor} to run {@code anchorDelay} later. */
  private ScheduledFuture<?> timer;
  private long anchor;
  private long anchorDelay;
  /** Numbers each scheduled sweep: a cancelled one that already left the scheduler does nothing. */
  private long timerGeneration;
  private boolean shutdown;

  /**
   * @param cluster the cluster's name, for logs
   * @param random draws the enforcement percentages, on the SynchronizationContext
   */
  public OutlierDetector(String cluster, SynchronizationContext syncContext, ScheduledExecutorService scheduler,
      RandomGenerator random) {
    this.cluster = cluster;
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.random = random;
  }

  /** Where ejections are counted from now on. */
  public void metrics(ClusterMetrics metrics) {
    this.metrics = metrics;
  }

  /**
   * A helper that forwards everything to {@code parent}, wrapping each subchannel it creates for
   * this detector.
   */
  public Helper helper(Helper parent) {
    return new ForwardingLoadBalancerHelper() {
      @Override
      protected Helper delegate() {
        return parent;
      }

      @Override
      public Subchannel createSubchannel(CreateSubchannelArgs args) {
        return wrap(parent.createSubchannel(args), args.getAddresses());
      }
    };
  }

  /**
   * The cluster's endpoints are now {@code addressSets} (gRFC A50, "map entry source": the
   * assignment, not the subchannels): a new endpoint gets a tracker, a kept one keeps its own, one
   * no longer listed loses it.
   */
  public void updateEndpoints(List<Set<SocketAddress>> addressSets) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Set<Set<SocketAddress>> wanted = new HashSet<>(addressSets);
    endpoints.keySet().retainAll(wanted);
    for (Set<SocketAddress> addresses : addressSets) {
      endpoints.computeIfAbsent(addresses, EndpointTracker::new);
    }
    byAddress.clear();
    ordered = new ArrayList<>(endpoints.values());
    for (EndpointTracker e : endpoints.values()) {
      for (SocketAddress a : e.addresses) {
        byAddress.putIfAbsent(a, e);
      }
    }
  }

  /**
   * Applies the cluster's {@code outlier_detection}; null, or one without an algorithm, turns
   * detection off.
   */
  public void configure(OutlierDetection newConfig) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (shutdown) {
      return;
    }
    config = newConfig;
    if (newConfig == null || !newConfig.enabled()) {
      long now = now();
      cancelTimer();
      anchor = now;
      started = false;
      for (EndpointTracker e : endpoints.values()) {
        e.multiplier = 0;
        if (e.ejected) {
          e.uneject();
          logReturn(e, "outlier detection turned off");
        }
      }
      return;
    }
    long interval = EjectionSweep.saturatedNanos(newConfig.interval());
    long now = now();
    if (!started) {
      started = true;
      lastStart = now;
      for (EndpointTracker e : endpoints.values()) {
        e.calls.drain();
      }
      schedule(now, interval);
    } else {
      cancelTimer();
      schedule(now, Math.max(0, interval - (now - lastStart)));
    }
  }

  /** Whether calls are counted: an algorithm is configured. */
  public boolean counting() {
    return config != null && config.enabled();
  }

  /**
   * The call counter a pick of {@code subchannel} bumps, or null: detection off, or a subchannel
   * this detector did not make or does not track. On the SynchronizationContext.
   */
  public CallCounter counter(Subchannel subchannel) {
    return counting() ? callCounter(subchannel) : null;
  }

  /**
   * The call counter of a subchannel made by an outlier detector, or null: safe on any thread (it
   * reads only what never changes), for pickers built while {@link #counting} was true.
   */
  public static CallCounter callCounter(Subchannel subchannel) {
    if (subchannel instanceof OutlierSubchannel wrapped) {
      EndpointTracker tracker = wrapped.tracker;
      return tracker == null ? null : tracker.calls;
    }
    return null;
  }

  /** The subchannel a pick hands the channel: the real one under a wrapper of this package. */
  public static Subchannel unwrap(Subchannel subchannel) {
    return subchannel instanceof OutlierSubchannel wrapped ? wrapped.real() : subchannel;
  }

  /** The endpoints ejected now (their addresses), for tests and operators. */
  public List<Set<SocketAddress>> ejected() {
    return endpoints.values().stream().filter(e -> e.ejected).map(e -> e.addresses).toList();
  }

  /** Stops the sweeps; the subchannels are the balancers' to close. */
  public void shutdown() {
    shutdown = true;
    cancelTimer();
  }

  /** One sweep now (the timer's work; benchmarks call it directly). */
  public void sweep() {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (config == null || !config.enabled()) {
      return;
    }
    sweepAt(now());
  }

  private void sweepAt(long now) {
    EjectionSweep.run(ordered, config, now, random, new EjectionSweep.Decisions() {
      @Override
      public void ejected(EndpointTracker endpoint, String why) {
        metrics.outlierEjection();
        logger.info("cluster {}: endpoint {} ejected by outlier detection ({}; ejection {})",
            cluster, endpoint, why, endpoint.multiplier);
      }

      @Override
      public void returned(EndpointTracker endpoint) {
        logReturn(endpoint, "ejection time over");
      }
    });
  }

  private void logReturn(EndpointTracker endpoint, String why) {
    metrics.outlierReturn();
    logger.info("cluster {}: endpoint {} back from outlier ejection ({})", cluster, endpoint, why);
  }

  private Subchannel wrap(Subchannel subchannel, List<EquivalentAddressGroup> groups) {
    return new OutlierSubchannel(subchannel, groups, syncContext, this::tracker);
  }

  /** The tracker of a subchannel's addresses: one endpoint's address set (gRFC A61), else none. */
  private EndpointTracker tracker(List<EquivalentAddressGroup> groups) {
    Set<SocketAddress> addresses = new HashSet<>();
    for (EquivalentAddressGroup g : groups) {
      addresses.addAll(g.getAddresses());
    }
    EndpointTracker tracker = endpoints.get(addresses);
    if (tracker == null && addresses.size() == 1) {
      tracker = byAddress.get(addresses.iterator().next());
    }
    return tracker;
  }

  /** The timer's time: when the pending sweep was scheduled plus how long ago that was. */
  private long now() {
    if (timer == null) {
      return anchor;
    }
    return anchor + anchorDelay - Math.max(0, Math.min(anchorDelay, timer.getDelay(TimeUnit.NANOSECONDS)));
  }

  private void schedule(long now, long delay) {
    anchor = now;
    anchorDelay = delay;
    long generation = ++timerGeneration;
    timer = scheduler.schedule(() -> syncContext.execute(() -> fire(generation)), delay, TimeUnit.NANOSECONDS);
  }

  private void fire(long generation) {
    if (shutdown || generation != timerGeneration || !started) {
      return;
    }
    long now = anchor + anchorDelay;
    timer = null;
    anchor = now;
    lastStart = now; // A50: the timer start timestamp is the last time the timer fired
    sweepAt(now);
    schedule(now, EjectionSweep.saturatedNanos(config.interval()));
  }

  private void cancelTimer() {
    timerGeneration++;
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
