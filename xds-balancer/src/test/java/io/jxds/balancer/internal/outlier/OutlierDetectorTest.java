package io.jxds.balancer.internal.outlier;

import static io.grpc.ConnectivityState.IDLE;
import static io.grpc.ConnectivityState.READY;
import static io.grpc.ConnectivityState.TRANSIENT_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.Subchannel;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
import io.jxds.balancer.internal.metrics.BalancerMetrics;
import io.jxds.client.internal.metrics.Telemetry;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.FakeLbHelper.FakeSubchannel;
import io.jxds.testing.InMemoryMetrics;
import io.jxds.testing.TestRandom;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** gRFC A50's algorithms and timer, on a fake clock with seeded randomness. */
class OutlierDetectorTest {
  private final FakeLbHelper channel = new FakeLbHelper();
  private final OutlierDetector detector = new OutlierDetector(
      "payments", channel.getSynchronizationContext(), channel.getScheduledExecutorService(), TestRandom.seeded(7));
  private final Helper helper = detector.helper(channel);
  /** What each wrapped subchannel told its balancer, in order. */
  private final Map<Subchannel, List<ConnectivityStateInfo>> told = new HashMap<>();
  private final List<InetSocketAddress> addresses = new ArrayList<>();

  @BeforeEach
  void tenEndpoints() {
    for (int i = 0; i < 10; i++) {
      addresses.add(new InetSocketAddress("10.0.0." + (i + 1), 443));
    }
  }

  @Test
  void failingEndpointIsEjectedAtTheFirstSweepAndReportsTransientFailure() {
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0); // endpoint 0 fails every call
    channel.forward(9, TimeUnit.SECONDS);
    assertThat(detector.ejected()).isEmpty();
    channel.forward(1, TimeUnit.SECONDS);
    assertThat(detector.ejected()).containsExactly(Set.of(addresses.get(0)));
    ConnectivityStateInfo last = lastTold(subs.get(0));
    assertThat(last.getState()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(last.getStatus().getDescription()).isEqualTo("endpoint /10.0.0.1:443 ejected by outlier detection");
    for (Subchannel other : subs.subList(1, 5)) {
      assertThat(lastTold(other).getState()).isEqualTo(READY);
    }
  }

  @Test
  void failurePercentageNeedsMoreThanTheThresholdAndTheRequestVolume() {
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 85, 0, 0, 0, 0); // 85 of 100: not more than 85 %
    record(subs.get(1), 49, 49); // 49 calls, all failed: below request_volume 50
    sweep();
    assertThat(detector.ejected()).isEmpty();
  }

  @Test
  void failurePercentageNeedsMinimumHostsInTheCluster() {
    OutlierDetection config = withFailurePercentage(new FailurePercentage(85, 100, 6, 50), 100);
    List<Subchannel> subs = start(5, config);
    calls(subs, 100, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).isEmpty();
  }

  @Test
  void successRateEjectsTheStatisticalOutlier() {
    // Fractions 1, 1, 1, 1, 0: mean 0.8, stdev 0.4, threshold 0.8 - 0.4 * 1.9 = 0.04.
    List<Subchannel> subs = start(5, successRate(SuccessRate.defaults(), 100));
    calls(subs, 100, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).containsExactly(Set.of(addresses.get(0)));
  }

  @Test
  void successRateLeavesEndpointsWithinTheSpreadAlone() {
    // 0.9 and 1: mean 0.98, stdev 0.04, threshold 0.904: the endpoint at 0.9 goes; with factor 3000 it stays.
    List<Subchannel> subs = start(5, successRate(new SuccessRate(3000, 100, 5, 100), 100));
    calls(subs, 10, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).isEmpty();
    channel.run(() -> detector.configure(successRate(SuccessRate.defaults(), 100)));
    calls(subs, 10, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).containsExactly(Set.of(addresses.get(0)));
  }

  @Test
  void successRateNeedsMinimumHostsWithTheRequestVolume() {
    List<Subchannel> subs = start(5, successRate(SuccessRate.defaults(), 100));
    calls(subs, 100, 0, 0, 0, 0);
    record(subs.get(4), 99, 0); // only four endpoints reach request_volume 100
    drainAndSet(subs.get(4), 99);
    sweep();
    assertThat(detector.ejected()).isEmpty();
  }

  @Test
  void maxEjectionPercentBoundsEjections() {
    List<Subchannel> subs = start(10, failurePercentage(10));
    calls(subs, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).hasSize(1); // 10 % of 10
    channel.run(() -> detector.configure(failurePercentage(30)));
    calls(subs, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).hasSize(3);
  }

  @Test
  void maxEjectionPercentZeroStillEjectsOne() {
    // gRFC A50: "will eject at least one address regardless of the value" (grpc-java ejects none).
    List<Subchannel> subs = start(10, failurePercentage(0));
    calls(subs, 100, 100, 0, 0, 0, 0, 0, 0, 0, 0);
    sweep();
    assertThat(detector.ejected()).hasSize(1);
  }

  @Test
  void ejectionLastsBaseTimesMultiplierAndTheMultiplierDecays() {
    List<Subchannel> subs = start(5, failurePercentage(100)); // interval 10 s, base 30 s, max 300 s
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS); // t=10: ejected, multiplier 1
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(30, TimeUnit.SECONDS); // t=40: 30 s passed, not more than 30 s
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(10, TimeUnit.SECONDS); // t=50: back
    assertThat(detector.ejected()).isEmpty();
    assertThat(lastTold(subs.get(0)).getState()).isEqualTo(READY);
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS); // t=60: ejected again, multiplier 2: 60 s
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(60, TimeUnit.SECONDS); // t=120: 60 s passed
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(10, TimeUnit.SECONDS); // t=130: back, multiplier still 2
    assertThat(detector.ejected()).isEmpty();
    channel.forward(20, TimeUnit.SECONDS); // t=140, t=150: two healthy sweeps, multiplier 0
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS); // t=160: ejected, multiplier 1: 30 s again
    channel.forward(40, TimeUnit.SECONDS); // t=200: back (40 s > 30 s)
    assertThat(detector.ejected()).isEmpty();
  }

  @Test
  void maxEjectionTimeCapsTheEjection() {
    OutlierDetection config = new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30),
        Duration.ofSeconds(40), 100, Optional.empty(), Optional.of(new FailurePercentage(85, 100, 5, 50)));
    List<Subchannel> subs = start(5, config);
    for (int i = 0; i < 2; i++) { // two ejections in a row: multiplier 2, 60 s capped to 40 s
      calls(subs, 100, 0, 0, 0, 0);
      sweep();
      while (!detector.ejected().isEmpty()) {
        channel.forward(10, TimeUnit.SECONDS);
      }
    }
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS);
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(40, TimeUnit.SECONDS); // 40 s: not more than the cap
    assertThat(detector.ejected()).hasSize(1);
    channel.forward(10, TimeUnit.SECONDS);
    assertThat(detector.ejected()).isEmpty();
  }

  @Test
  void realStatesWhileEjectedAreHeldBackAndTheLastIsReportedOnReturn() {
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS);
    FakeSubchannel real = channel.subchannel(addresses.get(0));
    int before = told.get(subs.get(0)).size();
    real.setState(IDLE);
    assertThat(told.get(subs.get(0))).hasSize(before);
    channel.forward(40, TimeUnit.SECONDS);
    assertThat(lastTold(subs.get(0)).getState()).isEqualTo(IDLE);
    assertThat(real.isShutdown()).isFalse(); // the connection was kept
  }

  @Test
  void subchannelCreatedForAnEjectedEndpointIsEjectedAtOnce() {
    // An endpoint that moves to another priority or locality keeps its ejection (and its counter).
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS);
    Subchannel moved = create(addresses.get(0));
    channel.run(() -> subs.get(0).shutdown());
    assertThat(lastTold(moved).getState()).isEqualTo(TRANSIENT_FAILURE);
    ((FakeSubchannel) OutlierDetector.unwrap(moved)).setState(READY); // held back while ejected
    assertThat(lastTold(moved).getState()).isEqualTo(TRANSIENT_FAILURE);
    assertThat(detector.counter(moved)).isSameAs(detector.counter(subs.get(0)));
    channel.forward(40, TimeUnit.SECONDS);
    assertThat(lastTold(moved).getState()).isEqualTo(READY);
  }

  @Test
  void configUpdatesNeitherResetTheCountsNorPostponeTheSweep() {
    // gRFC A50; grpc-java zeroes the counters and restarts the interval on every update.
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0);
    for (int i = 0; i < 9; i++) {
      int maxPercent = 100 - i;
      channel.forward(1, TimeUnit.SECONDS);
      channel.run(() -> detector.updateEndpoints(addressSets(5)));
      channel.run(() -> detector.configure(failurePercentage(maxPercent)));
    }
    assertThat(detector.ejected()).isEmpty();
    channel.forward(1, TimeUnit.SECONDS); // t=10: the first interval's sweep, on time
    assertThat(detector.ejected()).containsExactly(Set.of(addresses.get(0)));
  }

  @Test
  void aShorterIntervalCountsFromTheLastSweep() {
    start(5, failurePercentage(100));
    channel.forward(4, TimeUnit.SECONDS);
    channel.run(() -> detector.configure(withInterval(failurePercentage(100), Duration.ofSeconds(6))));
    assertThat(channel.clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(2));
    channel.forward(2, TimeUnit.SECONDS); // the sweep at t=6
    assertThat(channel.clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(6));
    channel.forward(5, TimeUnit.SECONDS);
    channel.run(() -> detector.configure(withInterval(failurePercentage(100), Duration.ofSeconds(2))));
    assertThat(channel.clock.nanosUntilNextTask()).isZero(); // already past: at once
  }

  @Test
  void turningDetectionOffLetsEveryEndpointBackAndStopsCounting() {
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS);
    assertThat(detector.ejected()).hasSize(1);
    channel.run(() -> detector.configure(new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30),
        Duration.ofSeconds(300), 10, Optional.empty(), Optional.empty())));
    assertThat(detector.ejected()).isEmpty();
    assertThat(lastTold(subs.get(0)).getState()).isEqualTo(READY);
    assertThat(detector.counter(subs.get(1))).isNull();
    assertThat(channel.clock.numPendingTasks()).isZero();
  }

  @Test
  void anEndpointLeavingTheAssignmentLosesItsHistory() {
    List<Subchannel> subs = start(5, failurePercentage(100));
    calls(subs, 100, 0, 0, 0, 0);
    channel.forward(10, TimeUnit.SECONDS);
    channel.run(() -> detector.updateEndpoints(addressSets(5).subList(1, 5)));
    channel.run(() -> detector.updateEndpoints(addressSets(5)));
    assertThat(detector.ejected()).isEmpty();
    assertThat(told.get(create(addresses.get(0)))).isEmpty(); // not ejected: nothing but its own states
  }

  @Test
  void aSubchannelOutsideTheAssignmentIsNotTracked() {
    start(5, failurePercentage(100));
    Subchannel stranger = create(new InetSocketAddress("10.9.9.9", 443));
    assertThat(detector.counter(stranger)).isNull();
    assertThat(OutlierDetector.unwrap(stranger)).isInstanceOf(FakeSubchannel.class);
  }

  @Test
  void enforcementPercentageEjectsThatShareOfOutliers() {
    OutlierDetection config = withFailurePercentage(new FailurePercentage(85, 50, 5, 50), 100);
    List<Subchannel> subs = start(5, config);
    int ejections = 0;
    for (int i = 0; i < 200; i++) {
      calls(subs, 100, 0, 0, 0, 0);
      sweep();
      if (!detector.ejected().isEmpty()) {
        ejections++;
        channel.run(() -> detector.configure(null));
        channel.run(() -> detector.configure(config));
      }
    }
    assertThat(ejections).isBetween(80, 120);
  }

  @Test
  void ejectionAndReturnAreOneInfoLineAndOneCountEach() {
    InMemoryMetrics otel = new InMemoryMetrics();
    channel.run(() -> detector.metrics(
        BalancerMetrics.cluster(Telemetry.of(otel.openTelemetry()), "xds-cluster:///payments", "payments")));
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(OutlierDetector.class);
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.addAppender(logs);
    logs.start();
    try {
      List<Subchannel> subs = start(5, failurePercentage(100));
      calls(subs, 100, 0, 0, 0, 0);
      channel.forward(10, TimeUnit.SECONDS);
      channel.forward(40, TimeUnit.SECONDS);
    } finally {
      logger.detachAppender(logs);
      logger.setLevel(level);
    }
    assertThat(logs.list).extracting(ILoggingEvent::getLevel).containsOnly(Level.INFO);
    assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
        "cluster payments: endpoint /10.0.0.1:443 ejected by outlier detection (failure percentage: 100 of 100"
            + " calls failed, over 85%; ejection 1)",
        "cluster payments: endpoint /10.0.0.1:443 back from outlier ejection (ejection time over)");
    Attributes labels = Attributes.of(AttributeKey.stringKey("grpc.target"), "xds-cluster:///payments",
        AttributeKey.stringKey("jxds.cluster"), "payments");
    assertThat(otel.value("jxds.lb.outlier_detection.ejections", labels)).isEqualTo(1);
    assertThat(otel.value("jxds.lb.outlier_detection.unejections", labels)).isEqualTo(1);
  }

  // --- helpers ---

  private List<Subchannel> start(int n, OutlierDetection config) {
    channel.run(() -> detector.updateEndpoints(addressSets(n)));
    channel.run(() -> detector.configure(config));
    List<Subchannel> subs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      subs.add(create(addresses.get(i)));
      channel.subchannel(addresses.get(i)).setState(READY);
    }
    return subs;
  }

  private Subchannel create(InetSocketAddress address) {
    Subchannel[] made = new Subchannel[1];
    channel.run(() -> {
      made[0] = helper.createSubchannel(CreateSubchannelArgs.newBuilder()
          .setAddresses(new EquivalentAddressGroup(address)).build());
      List<ConnectivityStateInfo> states = new ArrayList<>();
      told.put(made[0], states);
      made[0].start(states::add);
    });
    return made[0];
  }

  private List<Set<SocketAddress>> addressSets(int n) {
    List<Set<SocketAddress>> sets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sets.add(Set.of(addresses.get(i)));
    }
    return sets;
  }

  /** 100 calls to each endpoint, of which the given numbers failed. */
  private void calls(List<Subchannel> subs, int... failures) {
    for (int i = 0; i < failures.length; i++) {
      record(subs.get(i), 100, failures[i]);
    }
  }

  private void record(Subchannel sub, int calls, int failed) {
    CallCounter counter = detector.counter(sub);
    for (int i = 0; i < calls; i++) {
      counter.record(i >= failed);
    }
  }

  /** Replaces an endpoint's counts with {@code calls} successes. */
  private void drainAndSet(Subchannel sub, int calls) {
    detector.counter(sub).drain();
    record(sub, calls, 0);
  }

  private void sweep() {
    channel.run(detector::sweep);
  }

  private ConnectivityStateInfo lastTold(Subchannel sub) {
    List<ConnectivityStateInfo> states = told.get(sub);
    return states.isEmpty() ? ConnectivityStateInfo.forNonError(ConnectivityState.IDLE) : states.get(states.size() - 1);
  }

  private static OutlierDetection failurePercentage(int maxEjectionPercent) {
    return withFailurePercentage(FailurePercentage.defaults(), maxEjectionPercent);
  }

  private static OutlierDetection withFailurePercentage(FailurePercentage rule, int maxEjectionPercent) {
    return new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300),
        maxEjectionPercent, Optional.empty(), Optional.of(rule));
  }

  private static OutlierDetection successRate(SuccessRate rule, int maxEjectionPercent) {
    return new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300),
        maxEjectionPercent, Optional.of(rule), Optional.empty());
  }

  private static OutlierDetection withInterval(OutlierDetection c, Duration interval) {
    return new OutlierDetection(interval, c.baseEjectionTime(), c.maxEjectionTime(), c.maxEjectionPercent(),
        c.successRate(), c.failurePercentage());
  }
}
