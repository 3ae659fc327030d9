package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.LoadReportSink.LoadTotals;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Load reports (LRS) end to end: FakeAdsServer's sink, real backends on 127.0.0.1, a known RPC
 * load with drops, circuit-breaker refusals and errors, over several reports and a picker swap;
 * the reported sums must equal what the RPCs saw, exactly.
 */
class LoadReportingEndToEndTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  /** A method no backend implements: its RPCs reach a backend and end UNIMPLEMENTED. */
  private static final MethodDescriptor<byte[], byte[]> NOPE = TestBackend.NAME_METHOD.toBuilder()
      .setFullMethodName("jxds.test.Who/Nope")
      .build();

  private final FakeAdsServer ads = FakeAdsServer.loopback();
  private final TestBackends backends = new TestBackends();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private DefaultXdsClient client;

  @BeforeEach
  void setUp() {
    ads.start();
    ads.loadReports().interval(Duration.ofMillis(200));
    client = XdsClientBuilder.forTarget(ads.serverUri(), InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("lrs-e2e").build())
        .build();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    client.close();
    backends.close();
    ads.stop();
    assertThat(ads.unexpectedErrors()).isEmpty();
  }

  @Test
  void reportsCountEveryRpcDropAndRefusalExactlyAcrossReportsAndPickerSwaps() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    ads.setClusters(XdsResources.cluster("payments").lrsSelf().maxRequests(2).build());
    ads.setEndpoints(assignment(a, 1, b, 1).build());
    ManagedChannel first = channel("payments");
    ManagedChannel second = channel("payments"); // a second channel shares the cluster's counters
    Tally tally = new Tally();
    while (!"ok".equals(tally.call(first, TestBackend.NAME_METHOD))) {
      Thread.sleep(10); // until the channel routes; every attempt is tallied
    }
    tally.others.clear(); // before the channel routes, an RPC may fail without reaching a backend

    // Two streams held open fill the circuit breaker (max_requests 2): the next RPCs are refused.
    List<ClientCall<byte[], byte[]>> holds = new ArrayList<>();
    for (ManagedChannel c : List.of(first, second)) {
      int before = a.heldStreams() + b.heldStreams();
      while (true) { // a hold may be dropped (20 %): tally it and open another
        List<Status> closed = new CopyOnWriteArrayList<>();
        ClientCall<byte[], byte[]> hold = BackendCalls.hold(c, closed);
        Poll.until("hold reached a backend or closed", () -> a.heldStreams() + b.heldStreams() > before
            || !closed.isEmpty());
        if (closed.isEmpty()) {
          holds.add(hold);
          break;
        }
        tally.classify(closed.get(0));
      }
    }
    for (int i = 0; i < 50; i++) {
      tally.call(i % 2 == 0 ? first : second, TestBackend.NAME_METHOD);
    }
    a.releaseHeld(2);
    b.releaseHeld(2);
    Poll.until("held streams closed", () -> a.heldStreams() + b.heldStreams() == 0);
    tally.add("ok", 2);
    for (int i = 0; i < 400; i++) {
      if (i == 200) {
        // A report boundary and a new picker, mid-load: neither may lose or repeat a count.
        int reports = ads.loadReports().reports().size();
        Poll.until("a report mid-load", () -> ads.loadReports().reports().size() > reports);
        ads.setEndpoints(assignment(a, 3, b, 1).build());
      }
      tally.call(i % 2 == 0 ? first : second, TestBackend.NAME_METHOD);
    }
    for (int i = 0; i < 100; i++) {
      tally.call(first, NOPE);
    }

    long issued = tally.get("ok") + tally.get("error");
    LoadTotals totals = ads.loadReports().awaitTotals("payments",
        t -> t.issued() == issued && t.lastInProgress() == 0, WAIT);

    assertThat(tally.get("refused")).as("refusals seen by RPCs").isPositive();
    assertThat(tally.get("dropped")).as("drops seen by RPCs").isPositive();
    assertThat(totals.succeeded()).isEqualTo(tally.get("ok"));
    assertThat(totals.errored()).isEqualTo(tally.get("error")).isPositive();
    assertThat(totals.droppedByCategory()).isEqualTo(Map.of("throttle", tally.get("dropped")));
    assertThat(totals.dropped()).as("refusals count as drops without a category")
        .isEqualTo(tally.get("dropped") + tally.get("refused"));
    assertThat(totals.issuedByLocality().keySet()).containsExactlyInAnyOrder("r/a/", "r/b/");
    assertThat(totals.reports()).as("the load spans several reports").isGreaterThan(1);
    assertThat(tally.others).isEmpty();
  }

  @Test
  void oneStreamPerControlPlaneReportsOnlyTheClustersAskedFor() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(
        XdsResources.cluster("payments").lrsSelf().build(), XdsResources.cluster("orders").lrsSelf().build());
    ads.setEndpoints(oneEndpoint("payments", a).build(), oneEndpoint("orders", a).build());
    ads.loadReports().reportClusters("orders");
    ManagedChannel payments = channel("payments");
    ManagedChannel orders = channel("orders");
    BackendCalls.awaitCalls(payments, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    BackendCalls.awaitCalls(orders, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    LoadTotals ordersTotals = ads.loadReports().awaitTotals("orders", t -> t.issued() >= 5, WAIT);
    int reportsSoFar = ads.loadReports().reports().size();
    Poll.until("two more reports", () -> ads.loadReports().reports().size() >= reportsSoFar + 2);

    assertThat(ordersTotals.succeeded()).isEqualTo(ordersTotals.issued());
    assertThat(ads.loadReports().totals("payments").reports()).as("not asked for").isZero();
    assertThat(ads.loadReports().nodes()).hasSize(1);
    assertThat(ads.loadReports().nodes().get(0).getId()).isEqualTo("lrs-e2e");
    assertThat(ads.loadReports().nodes().get(0).getClientFeaturesList())
        .contains("envoy.lrs.supports_send_all_clusters");
  }

  private ManagedChannel channel(String cluster) {
    ManagedChannel channel = Grpc.newChannelBuilder(XdsClusterPolicy.target(cluster),
            InsecureChannelCredentials.create())
        .setNameResolverArg(XdsClusterPolicy.XDS_CLIENT_ARG, client)
        .build();
    channels.add(channel);
    return channel;
  }

  private static EndpointsBuilder assignment(TestBackend a, int weightA, TestBackend b, int weightB) {
    return XdsResources.endpoints("payments")
        .drop("throttle", 20, FractionalPercent.DenominatorType.HUNDRED)
        .locality("r", "a", "", l -> l.priority(0).weight(weightA).endpoint("127.0.0.1", a.port(), HEALTHY))
        .locality("r", "b", "", l -> l.priority(0).weight(weightB).endpoint("127.0.0.1", b.port(), HEALTHY));
  }

  private static EndpointsBuilder oneEndpoint(String cluster, TestBackend a) {
    return XdsResources.endpoints(cluster)
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", a.port(), HEALTHY));
  }

  /** What the RPCs saw: ok, error (reached a backend and failed), dropped, refused, other. */
  private static final class Tally {
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<Status> others = new ArrayList<>();

    String call(ManagedChannel channel, MethodDescriptor<byte[], byte[]> method) {
      try {
        ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS),
            new byte[0]);
        add("ok", 1);
        return "ok";
      } catch (StatusRuntimeException e) {
        return classify(e.getStatus());
      }
    }

    String classify(Status status) {
      String description = String.valueOf(status.getDescription());
      String outcome;
      if (status.getCode() == Status.Code.UNIMPLEMENTED) {
        outcome = "error";
      } else if (description.contains("dropped by load balancer: category throttle")) {
        outcome = "dropped";
      } else if (description.contains("max concurrent requests")) {
        outcome = "refused";
      } else {
        outcome = "other";
        others.add(status);
      }
      add(outcome, 1);
      return outcome;
    }

    void add(String outcome, long n) {
      counts.merge(outcome, n, Long::sum);
    }

    long get(String outcome) {
      return counts.getOrDefault(outcome, 0L);
    }
  }
}
