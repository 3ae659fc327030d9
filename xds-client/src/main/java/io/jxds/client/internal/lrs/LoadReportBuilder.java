package io.jxds.client.internal.lrs;

import com.google.protobuf.Duration;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.jxds.api.model.LocalityId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns the store's ever-growing counters into one report's {@code ClusterStats}: each value is
 * what grew since the last report (the last values read are kept here), so nothing recorded
 * between two reads is lost or counted twice. {@code total_requests_in_progress} is the current
 * count, not a difference. Owned by the client's sync context.
 *
 * <p>A cluster is reported when something happened since its last report, or RPCs are still in
 * progress; a locality likewise. {@code load_report_interval} is the time the reported counts
 * cover, as gRPC measures it per cluster: since the counters were last read (a report that left
 * the cluster out as idle read them too: nothing had grown then), or, before the first read, since
 * they started. A cluster added an hour into the stream, or idle for an hour, reports the seconds
 * its counts grew in, not the hour, so the server's rate (count / interval) is right.
 */
final class LoadReportBuilder {
  /** The last values read, per counter object (identity: the store keeps its objects). */
  private final Map<Object, long[]> lastRead = new HashMap<>();
  /** When each cluster's counters were last read; absent: never, they count from their start. */
  private final Map<ClusterLoadStats, Long> lastReadNanos = new HashMap<>();

  /**
   * @param clusters the clusters the server asked for; ignored when {@code all}
   * @param all {@code send_all_clusters}
   * @param nowNanos the ticker's time now
   */
  List<ClusterStats> build(List<ClusterLoadStats> stats, Set<String> clusters, boolean all, long nowNanos) {
    List<ClusterStats> out = new ArrayList<>();
    for (ClusterLoadStats c : stats) {
      if (!all && !clusters.contains(c.cluster())) {
        continue;
      }
      ClusterStats.Builder b = ClusterStats.newBuilder()
          .setClusterName(c.cluster())
          .setClusterServiceName(c.edsServiceName());
      boolean active = false;
      long totalDrops = delta(c, 0, c.totalDrops());
      b.setTotalDroppedRequests(totalDrops);
      active |= totalDrops > 0;
      for (Map.Entry<String, LongAdder> e : c.dropsByCategory().entrySet()) {
        long d = delta(e.getValue(), 0, e.getValue().sum());
        if (d > 0) {
          b.addDroppedRequestsBuilder().setCategory(e.getKey()).setDroppedCount(d);
        }
      }
      for (LocalityLoadStats l : c.localities().values()) {
        // A stream that starts or ends between these reads is counted in this report or the next,
        // never both nor neither; in progress is a gauge, read as it is now.
        long inProgress = l.inProgress();
        long issued = delta(l, 0, l.issued());
        long succeeded = delta(l, 1, l.succeeded());
        long errored = delta(l, 2, l.errored());
        if (issued == 0 && succeeded == 0 && errored == 0 && inProgress == 0) {
          continue;
        }
        active = true;
        b.addUpstreamLocalityStats(UpstreamLocalityStats.newBuilder()
            .setLocality(locality(l.locality()))
            .setTotalIssuedRequests(issued)
            .setTotalSuccessfulRequests(succeeded)
            .setTotalErrorRequests(errored)
            .setTotalRequestsInProgress(inProgress));
      }
      Long lastRead = lastReadNanos.put(c, nowNanos);
      if (!active) {
        continue;
      }
      long since = lastRead != null ? lastRead : c.startNanos();
      b.setLoadReportInterval(duration(nowNanos - since));
      out.add(b.build());
    }
    return out;
  }

  /** What grew since the last read of counter {@code index} of {@code owner}; remembers {@code now}. */
  private long delta(Object owner, int index, long now) {
    long[] last = lastRead.computeIfAbsent(owner, k -> new long[3]);
    long d = now - last[index];
    last[index] = now;
    return d;
  }

  private static Locality locality(LocalityId id) {
    return Locality.newBuilder().setRegion(id.region()).setZone(id.zone()).setSubZone(id.subZone()).build();
  }

  private static Duration duration(long nanos) {
    return Duration.newBuilder().setSeconds(nanos / 1_000_000_000L).setNanos((int) (nanos % 1_000_000_000L)).build();
  }
}
