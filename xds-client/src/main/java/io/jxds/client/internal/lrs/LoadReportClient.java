package io.jxds.client.internal.lrs;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.jxds.client.internal.stream.ExponentialBackoff;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one LRS stream ({@code envoy.service.load_stats.v3.LoadReportingService}) to its
 * control plane, shared by every cluster whose {@code lrs_server} is {@code self}: started when
 * the first such cluster is used, it sends the node, then every {@code load_reporting_interval}
 * the server's last response asked for, the load of the clusters it named (all of them with
 * {@code send_all_clusters}). A stream that ends is reopened, at once if it had received a
 * response, else after the ADS backoff; counts recorded meanwhile go in the next report. All
 * state is on the client's sync context.
 */
public final class LoadReportClient {
  private static final Logger log = LoggerFactory.getLogger(LoadReportClient.class);
  /** gRFC A27 (as gRPC advertises it): the server may set {@code send_all_clusters}. */
  static final String SEND_ALL_CLUSTERS_FEATURE = "envoy.lrs.supports_send_all_clusters";
  /** What a server that names no interval (or zero) gets. */
  private static final long DEFAULT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Channel channel;
  private final String target;
  private final Node node;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier ticker;
  private final ExponentialBackoff backoff;
  private final LoadStatsStore store;
  private final LoadReportBuilder reports = new LoadReportBuilder();

  // Owned by the sync context.
  private ClientCallStreamObserver<LoadStatsRequest> stream;
  private boolean started;
  private boolean gotResponse;
  private boolean closed;
  private Set<String> clusters = Set.of();
  private boolean sendAllClusters;
  private long intervalNanos;
  private ScheduledHandle reportTimer;
  private ScheduledHandle retryTimer;

  /**
   * @param channel the control plane's channel (the ADS stream's); null: counts are kept, never sent
   * @param ticker monotonic nanoseconds, for {@code load_report_interval}
   */
  public LoadReportClient(
      Channel channel,
      String target,
      Node node,
      SynchronizationContext syncContext,
      ScheduledExecutorService scheduler,
      LongSupplier ticker,
      RandomGenerator random) {
    this.channel = channel;
    this.target = target;
    this.node = node.getClientFeaturesList().contains(SEND_ALL_CLUSTERS_FEATURE)
        ? node : node.toBuilder().addClientFeatures(SEND_ALL_CLUSTERS_FEATURE).build();
    this.syncContext = syncContext;
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.store = new LoadStatsStore(this::start, ticker);
    this.backoff = new ExponentialBackoff(random);
  }

  /** The counters balancers record into. */
  public LoadStatsStore store() {
    return store;
  }

  /** Opens the stream unless it is open (a cluster with load reporting is in use). Any thread. */
  private void start() {
    syncContext.execute(() -> {
      if (!started && !closed && channel != null) {
        started = true;
        openStream();
      }
    });
  }

  /** Ends the stream and every timer; the client is closing. */
  public void shutdown() {
    closed = true;
    cancelTimers();
    if (stream != null) {
      stream.cancel("xDS client closed", null);
      stream = null;
    }
  }

  private void openStream() {
    gotResponse = false;
    ResponseObserver observer = new ResponseObserver();
    LoadReportingServiceGrpc.newStub(channel).withWaitForReady().streamLoadStats(observer);
    stream = observer.requests;
    stream.onNext(LoadStatsRequest.newBuilder().setNode(node).build());
  }

  private void onResponse(ResponseObserver from, LoadStatsResponse response) {
    if (from.requests != stream || closed) {
      return;
    }
    if (!gotResponse) {
      log.info("LRS stream to {} open: reporting {} every {} s", target,
          response.getSendAllClusters() ? "all clusters" : response.getClustersList(),
          response.getLoadReportingInterval().getSeconds());
    }
    gotResponse = true;
    backoff.reset();
    sendAllClusters = response.getSendAllClusters();
    clusters = Set.copyOf(response.getClustersList());
    long asked = TimeUnit.SECONDS.toNanos(response.getLoadReportingInterval().getSeconds())
        + response.getLoadReportingInterval().getNanos();
    intervalNanos = asked > 0 ? asked : DEFAULT_INTERVAL_NANOS;
    scheduleReport();
  }

  private void scheduleReport() {
    if (reportTimer != null) {
      reportTimer.cancel();
    }
    reportTimer = syncContext.schedule(this::report, intervalNanos, TimeUnit.NANOSECONDS, scheduler);
  }

  private void report() {
    reportTimer = null;
    if (stream == null || closed) {
      return;
    }
    List<ClusterStats> stats = reports.build(store.all(), clusters, sendAllClusters, ticker.getAsLong());
    stream.onNext(LoadStatsRequest.newBuilder().addAllClusterStats(stats).build());
    scheduleReport();
  }

  private void onClose(ResponseObserver from, Status status) {
    if (from.requests != stream || closed) {
      return;
    }
    stream = null;
    cancelTimers();
    long delay = gotResponse ? 0 : backoff.nextDelayNanos();
    if (!gotResponse) {
      log.warn("LRS stream to {} failed: {}; retrying in {} ms", target, status,
          TimeUnit.NANOSECONDS.toMillis(delay));
    } else {
      log.debug("LRS stream to {} ended: {}; reopening", target, status);
    }
    retryTimer = syncContext.schedule(() -> {
      retryTimer = null;
      if (!closed) {
        openStream();
      }
    }, delay, TimeUnit.NANOSECONDS, scheduler);
  }

  private void cancelTimers() {
    if (reportTimer != null) {
      reportTimer.cancel();
      reportTimer = null;
    }
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
  }

  /** One stream's responses, handed to the sync context. */
  private final class ResponseObserver implements ClientResponseObserver<LoadStatsRequest, LoadStatsResponse> {
    private ClientCallStreamObserver<LoadStatsRequest> requests;

    @Override
    public void beforeStart(ClientCallStreamObserver<LoadStatsRequest> requestStream) {
      requests = requestStream;
    }

    @Override
    public void onNext(LoadStatsResponse value) {
      syncContext.execute(() -> onResponse(this, value));
    }

    @Override
    public void onError(Throwable t) {
      syncContext.execute(() -> onClose(this, Status.fromThrowable(t)));
    }

    @Override
    public void onCompleted() {
      syncContext.execute(() -> onClose(this, Status.OK));
    }
  }
}
