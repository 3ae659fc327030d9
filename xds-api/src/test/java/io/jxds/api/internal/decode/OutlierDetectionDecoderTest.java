package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** CDS {@code outlier_detection} (gRFC A50, "Validation" and "xDS Integration"). */
class OutlierDetectionDecoderTest {
  @Test
  void clusterWithoutOutlierDetectionHasNone() throws Exception {
    assertThat(ClusterDecoder.decode(cluster("a").build()).outlierDetection()).isEmpty();
  }

  @Test
  void emptyOutlierDetectionGivesA50DefaultsWithFailurePercentageOff() throws Exception {
    // gRFC A50: enforcing_failure_percentage unset turns failure percentage off (grpc-java leaves it on).
    assertThat(decode(OutlierDetection.newBuilder()))
        .isEqualTo(io.jxds.api.model.OutlierDetection.defaults());
    assertThat(decode(OutlierDetection.newBuilder()).failurePercentage()).isEmpty();
    assertThat(decode(OutlierDetection.newBuilder()).successRate()).contains(new SuccessRate(1900, 100, 5, 100));
  }

  @Test
  void enforcingFailurePercentageSetTurnsItOnWithDefaults() throws Exception {
    assertThat(decode(OutlierDetection.newBuilder().setEnforcingFailurePercentage(UInt32Value.of(30)))
        .failurePercentage())
        .contains(new FailurePercentage(85, 30, 5, 50));
  }

  @Test
  void enforcingZeroTurnsEachAlgorithmOff() throws Exception {
    io.jxds.api.model.OutlierDetection od = decode(OutlierDetection.newBuilder()
        .setEnforcingSuccessRate(UInt32Value.of(0))
        .setEnforcingFailurePercentage(UInt32Value.of(0)));
    assertThat(od.successRate()).isEmpty();
    assertThat(od.failurePercentage()).isEmpty();
    assertThat(od.enabled()).isFalse();
  }

  @Test
  void everyFieldA50NamesIsRead() throws Exception {
    io.jxds.api.model.OutlierDetection od = decode(OutlierDetection.newBuilder()
        .setInterval(duration(2, 500_000_000))
        .setBaseEjectionTime(duration(7, 0))
        .setMaxEjectionTime(duration(70, 0))
        .setMaxEjectionPercent(UInt32Value.of(100))
        .setSuccessRateStdevFactor(UInt32Value.of(1000))
        .setEnforcingSuccessRate(UInt32Value.of(90))
        .setSuccessRateMinimumHosts(UInt32Value.of(3))
        .setSuccessRateRequestVolume(UInt32Value.of(-1)) // 2^32-1: uint32
        .setFailurePercentageThreshold(UInt32Value.of(0))
        .setEnforcingFailurePercentage(UInt32Value.of(100))
        .setFailurePercentageMinimumHosts(UInt32Value.of(Integer.MIN_VALUE)) // 2^31
        .setFailurePercentageRequestVolume(UInt32Value.of(10))
        .setConsecutive5Xx(UInt32Value.of(1))); // ignored (gRFC A50, "Rationale")
    assertThat(od).isEqualTo(new io.jxds.api.model.OutlierDetection(
        Duration.ofMillis(2500), Duration.ofSeconds(7), Duration.ofSeconds(70), 100,
        Optional.of(new SuccessRate(1000, 90, 3, 0xFFFF_FFFFL)),
        Optional.of(new FailurePercentage(0, 100, 1L << 31, 10))));
  }

  @Test
  void percentagesOver100AreRejectedNamingTheField() {
    assertPercentRejected("max_ejection_percent", (b, v) -> b.setMaxEjectionPercent(v));
    assertPercentRejected("enforcing_success_rate", (b, v) -> b.setEnforcingSuccessRate(v));
    assertPercentRejected("failure_percentage_threshold", (b, v) -> b.setFailurePercentageThreshold(v));
    assertPercentRejected("enforcing_failure_percentage", (b, v) -> b.setEnforcingFailurePercentage(v));
  }

  @Test
  void percentagesOf100AreAccepted() throws Exception {
    io.jxds.api.model.OutlierDetection od = decode(OutlierDetection.newBuilder()
        .setMaxEjectionPercent(UInt32Value.of(100))
        .setEnforcingSuccessRate(UInt32Value.of(100))
        .setFailurePercentageThreshold(UInt32Value.of(100))
        .setEnforcingFailurePercentage(UInt32Value.of(100)));
    assertThat(od.maxEjectionPercent()).isEqualTo(100);
    assertThat(od.failurePercentage().orElseThrow().threshold()).isEqualTo(100);
  }

  @Test
  void zeroOrNegativeDurationsAreRejectedNamingTheField() {
    // Envoy's outlier_detection.proto: duration = {gt {}}; a sweep every 0 s cannot be scheduled.
    for (String field : new String[] {"interval", "base_ejection_time", "max_ejection_time"}) {
      assertNack(withDuration(field, duration(0, 0)),
          "outlier_detection." + field + " must be positive, got {seconds: 0, nanos: 0}");
      assertNack(withDuration(field, duration(-1, 0)),
          "outlier_detection." + field + " must be positive, got {seconds: -1, nanos: 0}");
      assertNack(withDuration(field, duration(0, -5)),
          "outlier_detection." + field + " must be positive, got {seconds: 0, nanos: -5}");
    }
  }

  @Test
  void invalidDurationsAreRejectedNamingTheField() {
    assertNack(withDuration("interval", duration(1, 1_000_000_000)),
        "outlier_detection.interval must be a valid duration, got {seconds: 1, nanos: 1000000000}");
    assertNack(withDuration("base_ejection_time", duration(1, -1)),
        "outlier_detection.base_ejection_time must be a valid duration, got {seconds: 1, nanos: -1}");
    assertNack(withDuration("max_ejection_time", duration(315_576_000_001L, 0)),
        "outlier_detection.max_ejection_time must be a valid duration, got {seconds: 315576000001, nanos: 0}");
  }

  @Test
  void smallestPositiveDurationIsAccepted() throws Exception {
    assertThat(decode(OutlierDetection.newBuilder().setInterval(duration(0, 1))).interval())
        .isEqualTo(Duration.ofNanos(1));
  }

  private static void assertPercentRejected(String field, BiConsumer<OutlierDetection.Builder, UInt32Value> set) {
    OutlierDetection.Builder b = OutlierDetection.newBuilder();
    set.accept(b, UInt32Value.of(101));
    assertNack(cluster("a").outlierDetection(b.build()).build(),
        "outlier_detection." + field + " must be at most 100, got 101");
    OutlierDetection.Builder huge = OutlierDetection.newBuilder();
    set.accept(huge, UInt32Value.of(-1));
    assertNack(cluster("a").outlierDetection(huge.build()).build(),
        "outlier_detection." + field + " must be at most 100, got 4294967295");
  }

  private static Cluster withDuration(String field, com.google.protobuf.Duration d) {
    OutlierDetection.Builder b = OutlierDetection.newBuilder();
    switch (field) {
      case "interval" -> b.setInterval(d);
      case "base_ejection_time" -> b.setBaseEjectionTime(d);
      default -> b.setMaxEjectionTime(d);
    }
    return cluster("a").outlierDetection(b.build()).build();
  }

  private static io.jxds.api.model.OutlierDetection decode(OutlierDetection.Builder od) throws XdsResourceException {
    return ClusterDecoder.decode(cluster("a").outlierDetection(od.build()).build()).outlierDetection().orElseThrow();
  }

  private static com.google.protobuf.Duration duration(long seconds, int nanos) {
    return com.google.protobuf.Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }

  private static void assertNack(Cluster cluster, String expected) {
    assertThatThrownBy(() -> ClusterDecoder.decode(cluster))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("cluster \"" + cluster.getName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(cluster.getName());
  }
}
