package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bed's own lifecycle, driven by hand (the context is not used). Its channels on {@code
 * xds-cluster:///} need jxds's resolver: xds-balancer's {@code XdsTestBedEndToEndTest} routes them.
 */
class XdsTestBedTest {
  private final XdsTestBed bed = new XdsTestBed();
  private ManagedChannel direct;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (direct != null) {
      direct.shutdownNow();
    }
    System.clearProperty(XdsTestBed.BOOTSTRAP_PROPERTY);
  }

  @Test
  void eachTestGetsTheServersBootstrapWithoutClientRetentionAndThePropertyIsRestoredAfter() throws Exception {
    System.setProperty(XdsTestBed.BOOTSTRAP_PROPERTY, "the application's own");

    bed.beforeEach(null);

    assertThat(bed.ads().isRunning()).isTrue();
    assertThat(System.getProperty(XdsTestBed.BOOTSTRAP_PROPERTY))
        .contains("\"server_uri\": \"127.0.0.1:" + bed.ads().port() + "\"")
        .contains("\"jxds\": {\"client_retention\": \"0s\"}");
    bed.afterEach(null);
    assertThat(bed.ads().isRunning()).isFalse();
    assertThat(System.getProperty(XdsTestBed.BOOTSTRAP_PROPERTY)).isEqualTo("the application's own");
  }

  @Test
  void noPropertyBeforeMeansNoneAfter() throws Exception {
    bed.beforeEach(null);
    bed.afterEach(null);

    assertThat(System.getProperty(XdsTestBed.BOOTSTRAP_PROPERTY)).isNull();
  }

  @Test
  void backendsAnswerTheirNameAndCountWhatTheyServe() throws Exception {
    bed.beforeEach(null);
    List<TestBackend> backends = bed.backends().start(2);
    direct = ManagedChannelBuilder.forAddress(backends.get(0).ip(), backends.get(0).port()).usePlaintext().build();

    Map<String, Integer> split = BackendCalls.calls(direct, 5);

    assertThat(backends).extracting(TestBackend::name).containsExactly("backend-1", "backend-2");
    assertThat(split).containsExactly(Map.entry("backend-1", 5));
    assertThat(backends.get(0).served()).isEqualTo(5);
    assertThat(backends.get(1).served()).isZero();
    bed.afterEach(null);
    assertThat(BackendCalls.call(direct)).isEqualTo(BackendCalls.FAILED);
  }

  @Test
  void awaitSharesReturnsTheWindowInWhichEachBackendTookItsShare() throws Exception {
    bed.beforeEach(null);
    TestBackend only = bed.backends().start("only");
    direct = ManagedChannelBuilder.forAddress(only.ip(), only.port()).usePlaintext().build();

    Map<String, Integer> window = bed.awaitShares(direct, Map.of(only, 1.0), 0.05);

    assertThat(window).containsExactly(Map.entry("only", 400));
    bed.afterEach(null);
  }

  @Test
  void awaitCallsNamesTheLastWindowWhenTheConditionNeverHolds() throws Exception {
    bed.beforeEach(null);
    TestBackend a = bed.backends().start("a");
    direct = ManagedChannelBuilder.forAddress(a.ip(), a.port()).usePlaintext().build();

    assertThatThrownBy(() -> BackendCalls.awaitCalls(direct, 3, Duration.ofMillis(200), w -> w.containsKey("b")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("last window: {a=3}");
    bed.afterEach(null);
  }

  @Test
  void stoppedBackendComesBackOnItsPort() throws Exception {
    bed.beforeEach(null);
    TestBackend a = bed.backends().start("a");
    direct = ManagedChannelBuilder.forAddress(a.ip(), a.port()).usePlaintext().build();
    assertThat(BackendCalls.call(direct)).isEqualTo("a");

    bed.backends().stop("a");
    assertThat(BackendCalls.failure(direct).getCode()).isEqualTo(io.grpc.Status.Code.UNAVAILABLE);
    bed.backends().restart("a");
    direct.resetConnectBackoff();

    BackendCalls.awaitCalls(direct, 1, Duration.ofSeconds(10), w -> w.containsKey("a"));
    bed.afterEach(null);
  }

  @Test
  void channelsTheTestMadeAreShutDownAfterIt() throws Exception {
    bed.beforeEach(null);
    ManagedChannel tracked = bed.track(ManagedChannelBuilder.forTarget("127.0.0.1:9").usePlaintext().build());

    bed.afterEach(null);

    assertThat(tracked.isTerminated()).isTrue();
  }

  @Test
  void unexpectedServerErrorFailsTheTest() throws Exception {
    bed.beforeEach(null);
    bed.ads().recordUnexpected(new IllegalStateException("boom"));

    assertThatThrownBy(() -> bed.afterEach(null))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1 unexpected error")
        .hasRootCauseMessage("boom");
  }
}
