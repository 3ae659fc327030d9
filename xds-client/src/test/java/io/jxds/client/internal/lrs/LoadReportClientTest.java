package io.jxds.client.internal.lrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.grpc.ManagedChannel;
import io.grpc.SynchronizationContext;
import io.jxds.api.model.LocalityId;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.FakeClock;
import io.jxds.testing.LoadReportSink;
import io.jxds.testing.Poll;
import io.jxds.testing.TestRandom;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The LRS stream against FakeAdsServer's sink, its timer on a FakeClock. */
class LoadReportClientTest {
  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private final FakeClock clock = new FakeClock();
  private final SynchronizationContext syncContext =
      new SynchronizationContext((t, e) -> {
        throw new AssertionError(e);
      });
  private ManagedChannel channel;
  private LoadReportClient client;
  private LoadReportSink sink;

  @BeforeEach
  void start() {
    sink = ads.server().loadReports();
    sink.interval(Duration.ofSeconds(10));
    channel = ads.server().newClientChannel();
    client = new LoadReportClient(channel, "fake", Node.newBuilder().setId("lrs-unit").build(), syncContext, clock,
        clock.ticker(), TestRandom.seeded(1));
  }

  @AfterEach
  void stop() {
    syncContext.execute(client::shutdown);
    channel.shutdownNow();
  }

  @Test
  void reportsWhatGrewSinceTheLastReportAtTheIntervalTheServerAsks() {
    ClusterLoadStats payments = client.store().cluster("payments", "payments-eds");
    awaitStreamAndTimer();
    LocalityLoadStats zoneA = payments.locality(new LocalityId("r", "a", ""));
    zoneA.callStarted();
    zoneA.callStarted();
    zoneA.callStarted();
    zoneA.callFinished(true);
    zoneA.callFinished(true);
    payments.dropCounter("throttle").increment();
    payments.recordUncategorizedDrop();

    forward(9);
    assertThat(sink.reports()).as("nothing before the interval").isEmpty();
    forward(1);
    Poll.until("first report", () -> sink.reports().size() == 1);
    ClusterStats first = only(sink.reports().get(0));
    assertThat(first.getClusterName()).isEqualTo("payments");
    assertThat(first.getClusterServiceName()).isEqualTo("payments-eds");
    assertThat(first.getTotalDroppedRequests()).isEqualTo(2);
    assertThat(first.getDroppedRequestsList()).singleElement()
        .satisfies(d -> assertThat(d.getCategory()).isEqualTo("throttle"))
        .satisfies(d -> assertThat(d.getDroppedCount()).isEqualTo(1));
    UpstreamLocalityStats a = first.getUpstreamLocalityStats(0);
    assertThat(a.getLocality().getZone()).isEqualTo("a");
    assertThat(a.getTotalIssuedRequests()).isEqualTo(3);
    assertThat(a.getTotalSuccessfulRequests()).isEqualTo(2);
    assertThat(a.getTotalErrorRequests()).isZero();
    assertThat(a.getTotalRequestsInProgress()).isEqualTo(1);
    assertThat(first.getLoadReportInterval().getSeconds()).isEqualTo(10);

    zoneA.callFinished(false);
    forward(10);
    Poll.until("second report", () -> sink.reports().size() == 2);
    UpstreamLocalityStats second = only(sink.reports().get(1)).getUpstreamLocalityStats(0);
    assertThat(second.getTotalIssuedRequests()).as("nothing new issued").isZero();
    assertThat(second.getTotalErrorRequests()).isEqualTo(1);
    assertThat(second.getTotalRequestsInProgress()).isZero();
    assertThat(only(sink.reports().get(1)).getTotalDroppedRequests()).isZero();
    assertThat(sink.totals("payments").issued()).isEqualTo(3);
    assertThat(sink.nodes()).singleElement()
        .satisfies(n -> assertThat(n.getClientFeaturesList()).contains("envoy.lrs.supports_send_all_clusters"));
  }

  @Test
  void clustersTheServerDoesNotNameAreLeftOut() {
    sink.reportClusters("orders");
    ClusterLoadStats payments = client.store().cluster("payments", "payments");
    ClusterLoadStats orders = client.store().cluster("orders", "orders");
    awaitStreamAndTimer();
    payments.dropCounter("x").increment();
    orders.dropCounter("x").increment();

    forward(10);
    Poll.until("a report", () -> sink.reports().size() == 1);

    assertThat(only(sink.reports().get(0)).getClusterName()).isEqualTo("orders");
  }

  @Test
  void idleClusterIsNotReported() {
    client.store().cluster("payments", "payments");
    awaitStreamAndTimer();

    forward(10);
    Poll.until("a report", () -> sink.reports().size() == 1);

    assertThat(sink.reports().get(0).getClusterStatsList()).isEmpty();
  }

  @Test
  void clusterAddedLaterReportsTheIntervalSinceItsCountersStarted() {
    client.store().cluster("payments", "payments");
    awaitStreamAndTimer();
    reportsFor(60); // a minute of reports before the new cluster

    ClusterLoadStats orders = client.store().cluster("orders", "orders");
    LocalityLoadStats zoneA = orders.locality(new LocalityId("r", "a", ""));
    for (int i = 0; i < 100; i++) {
      zoneA.callStarted();
      zoneA.callFinished(true);
    }
    int before = sink.reports().size();
    forward(10);
    Poll.until("a report", () -> sink.reports().size() == before + 1);

    ClusterStats first = only(sink.reports().get(before));
    assertThat(first.getClusterName()).isEqualTo("orders");
    assertThat(first.getLoadReportInterval())
        .as("counted since the cluster's counters started, not since reporting began")
        .isEqualTo(com.google.protobuf.Duration.newBuilder().setSeconds(10).build());
  }

  @Test
  void clusterLeftOutWhileIdleReportsTheIntervalSinceItWasLastRead() {
    ClusterLoadStats payments = client.store().cluster("payments", "payments");
    awaitStreamAndTimer();
    reportsFor(60); // idle: left out of six reports

    payments.dropCounter("x").increment();
    int before = sink.reports().size();
    forward(10);
    Poll.until("a report", () -> sink.reports().size() == before + 1);

    ClusterStats first = only(sink.reports().get(before));
    assertThat(first.getLoadReportInterval())
        .as("the previous report read its counters (nothing grew then): the drop happened since")
        .isEqualTo(com.google.protobuf.Duration.newBuilder().setSeconds(10).build());
  }

  @Test
  void streamThatEndsIsReopenedAndWhatHappenedMeanwhileIsReportedNext() {
    ClusterLoadStats payments = client.store().cluster("payments", "payments");
    awaitStreamAndTimer();
    ads.server().stop(); // a control-plane restart: the stream ends after a response
    Poll.until("report timer cancelled, reopen scheduled", () -> clock.numPendingTasks() == 1
        && clock.nanosUntilNextTask() == 0);
    payments.dropCounter("x").increment(); // while no stream is open
    clock.runDueTasks();
    ads.server().start();

    Poll.until("second stream and its timer", () -> sink.nodes().size() == 2 && clock.numPendingTasks() == 1
        && clock.nanosUntilNextTask() > 0);
    forward(10);
    Poll.until("a report", () -> sink.reports().size() == 1);

    assertThat(only(sink.reports().get(0)).getTotalDroppedRequests()).isEqualTo(1);
  }

  private void awaitStreamAndTimer() {
    Poll.until("stream open and report timer armed", () -> sink.nodes().size() == 1 && clock.numPendingTasks() == 1);
  }

  /** Runs the report timer every 10 s for {@code seconds}, each report received by the sink. */
  private void reportsFor(int seconds) {
    for (int t = 10; t <= seconds; t += 10) {
      int before = sink.reports().size();
      forward(10);
      Poll.until("report at " + t + " s", () -> sink.reports().size() == before + 1);
    }
  }

  private void forward(int seconds) {
    clock.forwardTime(seconds, TimeUnit.SECONDS);
  }

  private static ClusterStats only(LoadStatsRequest request) {
    assertThat(request.getClusterStatsList()).hasSize(1);
    return request.getClusterStats(0);
  }
}
