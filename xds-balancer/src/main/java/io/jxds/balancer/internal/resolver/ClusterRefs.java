package io.jxds.balancer.internal.resolver;

import io.grpc.SynchronizationContext;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * gRFC A31's cluster reference counts: which clusters the cluster manager must keep. The route
 * table holds one reference on each cluster it names, and each call routed to a cluster one more,
 * from its route's choice until its response headers arrive (the call is committed: no more picks)
 * or, without headers, until it closes. A cluster stays in the cluster manager's config while it
 * has a reference, so a route update that drops a cluster does not fail the calls still on it;
 * when its count reaches zero it leaves, and {@code onChange} pushes the smaller config.
 *
 * <p>The set of clusters and the table's references change on the channel's
 * SynchronizationContext only. Calls take and drop their references on RPC threads, with one atomic
 * step each; a count dropped to zero by a call is removed on the SynchronizationContext, scheduled
 * through the channel's timer, never run on the call's stack. A reference that reached zero is
 * dead: it cannot be taken again, and a table naming that cluster again gets a fresh one.
 */
final class ClusterRefs {
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService timer;
  private final Runnable onChange;
  private final Map<String, ClusterRef> live = new HashMap<>();

  /**
   * @param syncContext the channel's
   * @param timer the channel's, to hand a call's last release over to {@code syncContext}
   * @param onChange told on {@code syncContext} when the set of clusters changed
   */
  ClusterRefs(SynchronizationContext syncContext, ScheduledExecutorService timer, Runnable onChange) {
    this.syncContext = Objects.requireNonNull(syncContext, "syncContext");
    this.timer = Objects.requireNonNull(timer, "timer");
    this.onChange = Objects.requireNonNull(onChange, "onChange");
  }

  /**
   * Takes a route table's reference on each of {@code clusters}; a cluster new to the set joins it
   * and {@code onChange} runs once, before this returns (so the cluster manager has every cluster
   * before a call can be routed to it).
   *
   * @return the references taken, by cluster: hand them to {@link #release} when the table goes
   */
  Map<String, ClusterRef> hold(Set<String> clusters) {
    syncContext.throwIfNotInThisSynchronizationContext();
    Map<String, ClusterRef> held = new HashMap<>();
    boolean added = false;
    for (String cluster : clusters) {
      ClusterRef ref = live.get(cluster);
      if (ref == null || !ref.tryRetain()) {
        // New, or dead with its removal still queued (the cluster never left the config).
        added |= ref == null;
        ref = new ClusterRef(cluster);
        live.put(cluster, ref);
      }
      held.put(cluster, ref);
    }
    if (added) {
      onChange.run();
    }
    return held;
  }

  /**
   * Drops a route table's references; the clusters left without one leave the set, and {@code
   * onChange} runs once if any did.
   */
  void release(Collection<ClusterRef> refs) {
    syncContext.throwIfNotInThisSynchronizationContext();
    boolean removed = false;
    for (ClusterRef ref : refs) {
      if (ref.count.decrementAndGet() == 0) {
        removed |= live.remove(ref.cluster, ref);
      }
    }
    if (removed) {
      onChange.run();
    }
  }

  /** The clusters with a reference, sorted. */
  Set<String> clusters() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return new TreeSet<>(live.keySet());
  }

  private void removeDead(ClusterRef ref) {
    if (ref.count.get() == 0 && live.remove(ref.cluster, ref)) {
      onChange.run();
    }
  }

  /** One cluster's count. Taken and dropped by calls on any thread. */
  final class ClusterRef {
    private final String cluster;
    private final ChosenCluster chosen;
    private final AtomicInteger count = new AtomicInteger(1);

    private ClusterRef(String cluster) {
      this.cluster = cluster;
      this.chosen = ChosenCluster.of(cluster);
    }

    /** The cluster. */
    String cluster() {
      return cluster;
    }

    /** The cluster as a call's option carries it, without a request hash: made once, not per call. */
    ChosenCluster chosen() {
      return chosen;
    }

    /** Takes a call's reference, unless the count already reached zero (then false). */
    boolean tryRetain() {
      while (true) {
        int current = count.get();
        if (current == 0) {
          return false;
        }
        if (count.compareAndSet(current, current + 1)) {
          return true;
        }
      }
    }

    /** Drops a call's reference: on any thread; the last one's removal is handed to the context. */
    void releaseFromCall() {
      if (count.decrementAndGet() == 0) {
        syncContext.schedule(() -> removeDead(this), 0, TimeUnit.NANOSECONDS, timer);
      }
    }

    /** The current count, for tests and logs. */
    int count() {
      return count.get();
    }

    @Override
    public String toString() {
      return "ClusterRef{" + cluster + ", " + count.get() + "}";
    }
  }
}
