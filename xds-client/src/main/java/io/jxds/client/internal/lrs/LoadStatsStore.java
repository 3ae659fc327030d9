package io.jxds.client.internal.lrs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * The load-report counters of one xDS client, per (cluster, EDS service name), for the clusters
 * whose {@code lrs_server} is {@code self}. Balancers on any channel get the same object for the
 * same cluster; the first one asked for starts the client's load-report stream. Entries live as
 * long as the client.
 */
public final class LoadStatsStore {
  private record Key(String cluster, String edsServiceName) {}

  private final ConcurrentMap<Key, ClusterLoadStats> clusters = new ConcurrentHashMap<>();
  private final Runnable onClusterAdded;
  private final LongSupplier ticker;

  /** @param onClusterAdded runs (on the caller's thread) each time a cluster is added */
  public LoadStatsStore(Runnable onClusterAdded) {
    this(onClusterAdded, System::nanoTime);
  }

  /**
   * @param onClusterAdded runs (on the caller's thread) each time a cluster is added
   * @param ticker monotonic nanoseconds: when a cluster's counters started, where its first
   *     {@code load_report_interval} counts from
   */
  public LoadStatsStore(Runnable onClusterAdded, LongSupplier ticker) {
    this.onClusterAdded = onClusterAdded;
    this.ticker = ticker;
  }

  /**
   * The counters of one cluster, created on first use.
   *
   * @param cluster the cluster's name
   * @param edsServiceName its EDS service name
   * @return the counters, the same object for the client's life
   */
  public ClusterLoadStats cluster(String cluster, String edsServiceName) {
    Key key = new Key(cluster, edsServiceName);
    ClusterLoadStats stats = clusters.get(key);
    if (stats != null) {
      return stats;
    }
    boolean[] created = new boolean[1];
    stats = clusters.computeIfAbsent(key, k -> {
      created[0] = true;
      return new ClusterLoadStats(k.cluster(), k.edsServiceName(), ticker.getAsLong());
    });
    if (created[0]) {
      onClusterAdded.run();
    }
    return stats;
  }

  List<ClusterLoadStats> all() {
    return new ArrayList<>(clusters.values());
  }
}
