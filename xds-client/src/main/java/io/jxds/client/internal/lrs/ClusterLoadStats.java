package io.jxds.client.internal.lrs;

import io.jxds.api.model.LocalityId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load of one (cluster, EDS service name) for load reports ({@code ClusterStats}): drops by
 * category and in total, and one {@link LocalityLoadStats} per locality. One per client, shared by
 * every channel and picker of the cluster; counters only grow (see {@link LocalityLoadStats}).
 */
public final class ClusterLoadStats {
  private final String cluster;
  private final String edsServiceName;
  private final ConcurrentMap<String, LongAdder> dropsByCategory = new ConcurrentHashMap<>();
  private final LongAdder totalDrops = new LongAdder();
  private final ConcurrentMap<LocalityId, LocalityLoadStats> localities = new ConcurrentHashMap<>();
  private final long startNanos;

  ClusterLoadStats(String cluster, String edsServiceName, long startNanos) {
    this.cluster = cluster;
    this.edsServiceName = edsServiceName;
    this.startNanos = startNanos;
  }

  /** The cluster's name ({@code cluster_name}). */
  public String cluster() {
    return cluster;
  }

  /** The EDS service name ({@code cluster_service_name}). */
  public String edsServiceName() {
    return edsServiceName;
  }

  /**
   * The counter of drops of one category; resolve it when a picker is built, not per pick.
   *
   * @param category the {@code drop_overloads} category
   * @return a counter whose increments count in the category and in the total
   */
  public DropCounter dropCounter(String category) {
    LongAdder c = dropsByCategory.computeIfAbsent(category, k -> new LongAdder());
    return () -> {
      c.increment();
      totalDrops.increment();
    };
  }

  /**
   * A drop without a category: the circuit breaker's refusals (counted in {@code
   * total_dropped_requests} only, as gRPC does).
   */
  public void recordUncategorizedDrop() {
    totalDrops.increment();
  }

  /**
   * The stats of one locality, created on first use.
   *
   * @param locality the locality
   * @return its stats, the same object for the cluster's life
   */
  public LocalityLoadStats locality(LocalityId locality) {
    return localities.computeIfAbsent(locality, LocalityLoadStats::new);
  }

  Map<String, LongAdder> dropsByCategory() {
    return dropsByCategory;
  }

  /** Drops so far, with and without a category. */
  public long totalDrops() {
    return totalDrops.sum();
  }

  Map<LocalityId, LocalityLoadStats> localities() {
    return localities;
  }

  /** When the counters started (the store's ticker): nothing was counted before. */
  long startNanos() {
    return startNanos;
  }

  /** Counts one drop of a category. */
  @FunctionalInterface
  public interface DropCounter {
    /** One RPC dropped. */
    void increment();
  }
}
