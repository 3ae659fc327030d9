package io.jxds.testing;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The load-report side of {@link FakeAdsServer}: {@code
 * envoy.service.load_stats.v3.LoadReportingService} on the same server, recording every report so
 * a test (or a control-plane author) can assert on what a client sends.
 *
 * <p>Each stream gets one {@code LoadStatsResponse} after its first request, with the clusters,
 * {@code send_all_clusters} and interval set here (default: all clusters every second); changing
 * them sends a new response to every open stream. Reports are summed per cluster by {@link
 * #totals(String)}: every {@code LoadStatsRequest} that carries {@code cluster_stats} adds up, so
 * a test can compare the sum with the RPCs it made, across any number of reports.
 */
public final class LoadReportSink {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private final List<StreamObserver<LoadStatsResponse>> streams = new ArrayList<>();
  private final List<LoadStatsRequest> requests = new ArrayList<>();
  private final List<Node> nodes = new ArrayList<>();
  private List<String> clusters = List.of();
  private boolean sendAllClusters = true;
  private Duration interval = Duration.ofSeconds(1);

  LoadReportSink() {}

  /**
   * Asks for reports on these clusters only (no {@code send_all_clusters}).
   *
   * @param names the cluster names
   */
  public void reportClusters(String... names) {
    update(() -> {
      clusters = List.of(names);
      sendAllClusters = false;
    });
  }

  /** Asks for reports on every cluster ({@code send_all_clusters}; the default). */
  public void reportAllClusters() {
    update(() -> {
      clusters = List.of();
      sendAllClusters = true;
    });
  }

  /**
   * Sets {@code load_reporting_interval} (default 1 s).
   *
   * @param newInterval the interval the client is asked to report at
   */
  public void interval(Duration newInterval) {
    update(() -> interval = newInterval);
  }

  /**
   * The nodes of the streams opened so far (the first request of each), oldest first.
   *
   * @return a copy
   */
  public List<Node> nodes() {
    lock.lock();
    try {
      return List.copyOf(nodes);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Every request received after the first of its stream (the reports), oldest first.
   *
   * @return a copy
   */
  public List<LoadStatsRequest> reports() {
    lock.lock();
    try {
      return List.copyOf(requests);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The sum of every report's stats for one cluster so far.
   *
   * @param cluster the cluster's name
   * @return the totals; all zero when never reported
   */
  public LoadTotals totals(String cluster) {
    lock.lock();
    try {
      return sum(cluster);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until a cluster's totals satisfy {@code condition}.
   *
   * @param cluster the cluster's name
   * @param condition what the totals must show
   * @param timeout how long to wait at most
   * @return the totals that satisfied it
   * @throws AssertionError if the time runs out, with the last totals
   */
  public LoadTotals awaitTotals(String cluster, Predicate<LoadTotals> condition, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        LoadTotals totals = sum(cluster);
        if (condition.test(totals)) {
          return totals;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("load reports for cluster " + cluster + " not as expected within " + timeout
              + "; totals: " + totals, new TimeoutException());
        }
        changed.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  /** Forgets recorded reports and nodes. */
  public void clear() {
    update(() -> {
      requests.clear();
      nodes.clear();
    });
  }

  private LoadTotals sum(String cluster) {
    LoadTotals.Builder b = new LoadTotals.Builder();
    for (LoadStatsRequest r : requests) {
      for (ClusterStats c : r.getClusterStatsList()) {
        if (c.getClusterName().equals(cluster)) {
          b.add(c);
        }
      }
    }
    return b.build();
  }

  private void update(Runnable change) {
    List<StreamObserver<LoadStatsResponse>> open;
    LoadStatsResponse response;
    lock.lock();
    try {
      change.run();
      changed.signalAll();
      open = List.copyOf(streams);
      response = response();
    } finally {
      lock.unlock();
    }
    for (StreamObserver<LoadStatsResponse> s : open) {
      send(s, response);
    }
  }

  private LoadStatsResponse response() {
    return LoadStatsResponse.newBuilder()
        .addAllClusters(clusters)
        .setSendAllClusters(sendAllClusters)
        .setLoadReportingInterval(com.google.protobuf.Duration.newBuilder()
            .setSeconds(interval.getSeconds()).setNanos(interval.getNano()))
        .build();
  }

  private static void send(StreamObserver<LoadStatsResponse> stream, LoadStatsResponse response) {
    synchronized (stream) { // a StreamObserver is not thread-safe
      try {
        stream.onNext(response);
      } catch (RuntimeException e) {
        // the stream is gone; its close is on its way
      }
    }
  }

  /** The gRPC service {@link FakeAdsServer} registers. */
  LoadReportingServiceGrpc.LoadReportingServiceImplBase service() {
    return new LoadReportingServiceGrpc.LoadReportingServiceImplBase() {
      @Override
      public StreamObserver<LoadStatsRequest> streamLoadStats(StreamObserver<LoadStatsResponse> responses) {
        return new StreamObserver<>() {
          private boolean first = true;

          @Override
          public void onNext(LoadStatsRequest request) {
            LoadStatsResponse response = null;
            lock.lock();
            try {
              if (first) {
                first = false;
                nodes.add(request.getNode());
                streams.add(responses);
                response = response();
              } else {
                requests.add(request);
              }
              changed.signalAll();
            } finally {
              lock.unlock();
            }
            if (response != null) {
              send(responses, response);
            }
          }

          @Override
          public void onError(Throwable t) {
            remove();
          }

          @Override
          public void onCompleted() {
            remove();
            synchronized (responses) {
              responses.onCompleted();
            }
          }

          private void remove() {
            lock.lock();
            try {
              streams.remove(responses);
            } finally {
              lock.unlock();
            }
          }
        };
      }
    };
  }

  /**
   * One cluster's load, summed over reports.
   *
   * @param issued {@code total_issued_requests}, all localities
   * @param succeeded {@code total_successful_requests}, all localities
   * @param errored {@code total_error_requests}, all localities
   * @param lastInProgress {@code total_requests_in_progress} of the last report, all localities
   * @param dropped {@code total_dropped_requests}
   * @param droppedByCategory {@code dropped_requests}, by category
   * @param issuedByLocality {@code total_issued_requests} by locality, keyed {@code region/zone/sub_zone}
   * @param reports how many reports named the cluster
   */
  public record LoadTotals(
      long issued,
      long succeeded,
      long errored,
      long lastInProgress,
      long dropped,
      Map<String, Long> droppedByCategory,
      Map<String, Long> issuedByLocality,
      int reports) {
    /**
     * Copies the maps.
     *
     * @param issued the requests issued
     * @param succeeded the requests that succeeded
     * @param errored the requests that failed
     * @param lastInProgress the requests in progress at the last report
     * @param dropped the requests dropped
     * @param droppedByCategory the drops by category
     * @param issuedByLocality the requests issued by locality
     * @param reports how many reports named the cluster
     */
    public LoadTotals {
      droppedByCategory = Map.copyOf(droppedByCategory);
      issuedByLocality = Map.copyOf(issuedByLocality);
    }

    private static final class Builder {
      private long issued;
      private long succeeded;
      private long errored;
      private long lastInProgress;
      private long dropped;
      private final Map<String, Long> byCategory = new TreeMap<>();
      private final Map<String, Long> byLocality = new TreeMap<>();
      private int reports;

      void add(ClusterStats c) {
        reports++;
        dropped += c.getTotalDroppedRequests();
        for (ClusterStats.DroppedRequests d : c.getDroppedRequestsList()) {
          byCategory.merge(d.getCategory(), d.getDroppedCount(), Long::sum);
        }
        long inProgress = 0;
        for (UpstreamLocalityStats l : c.getUpstreamLocalityStatsList()) {
          issued += l.getTotalIssuedRequests();
          succeeded += l.getTotalSuccessfulRequests();
          errored += l.getTotalErrorRequests();
          inProgress += l.getTotalRequestsInProgress();
          String key = l.getLocality().getRegion() + "/" + l.getLocality().getZone() + "/"
              + l.getLocality().getSubZone();
          byLocality.merge(key, l.getTotalIssuedRequests(), Long::sum);
        }
        lastInProgress = inProgress;
      }

      LoadTotals build() {
        return new LoadTotals(issued, succeeded, errored, lastInProgress, dropped, byCategory, byLocality, reports);
      }
    }
  }
}
