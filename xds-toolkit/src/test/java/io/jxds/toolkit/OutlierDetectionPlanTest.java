package io.jxds.toolkit;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The plan shows the outlier detection a cluster's balancer runs (gRFC A50), or that it is off. */
class OutlierDetectionPlanTest {
  private static Snapshot cluster(OutlierDetection detection) {
    var cluster = XdsResources.cluster("payments");
    if (detection != null) {
      cluster.outlierDetection(detection);
    }
    return Snapshot.of(cluster.build(), XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80, HEALTHY)).build());
  }

  @Test
  void anOutlierDetectionWithNoFieldSetIsSuccessRateWithItsDefaults() {
    TrafficPlan plan = cluster(OutlierDetection.getDefaultInstance()).plan();

    assertThat(plan).cluster("payments").hasOutlierDetection(io.jxds.api.model.OutlierDetection.defaults());
    org.assertj.core.api.Assertions.assertThat(plan.cluster("payments").orElseThrow().outlierDetection())
        .hasValueSatisfying(od -> {
          org.assertj.core.api.Assertions.assertThat(od.interval()).isEqualTo(Duration.ofSeconds(10));
          org.assertj.core.api.Assertions.assertThat(od.successRate()).isPresent();
          org.assertj.core.api.Assertions.assertThat(od.failurePercentage()).isEmpty();
        });
  }

  @Test
  void failurePercentageAloneWithItsSettings() {
    TrafficPlan plan = Snapshot.of(XdsResources.cluster("payments")
        .failurePercentageEjection(Duration.ofSeconds(1), Duration.ofSeconds(5), 40, 3, 20, 50).build()).plan();

    assertThat(plan).cluster("payments").hasOutlierDetection(new io.jxds.api.model.OutlierDetection(
        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(300), 50, Optional.empty(),
        Optional.of(new io.jxds.api.model.OutlierDetection.FailurePercentage(40, 100, 3, 20))));
  }

  @Test
  void noOutlierDetectionOrNoAlgorithmIsOff() {
    assertThat(cluster(null).plan()).cluster("payments").hasOutlierDetectionOff();
    // enforcing_success_rate 0 and no failure percentage: the detector counts nothing and ejects nothing.
    assertThat(cluster(OutlierDetection.newBuilder().setEnforcingSuccessRate(UInt32Value.of(0)).build()).plan())
        .cluster("payments").hasOutlierDetectionOff();
  }

  @Test
  void aDiffShowsOutlierDetectionTurnedOnAndOff() {
    Snapshot off = cluster(null);
    Snapshot on = cluster(OutlierDetection.getDefaultInstance());

    org.assertj.core.api.Assertions.assertThat(PlanDiff.between(off, on).ofKind(Change.Kind.OUTLIER_DETECTION))
        .singleElement().satisfies(c -> {
          org.assertj.core.api.Assertions.assertThat(c.cluster()).isEqualTo("payments");
          org.assertj.core.api.Assertions.assertThat(c.before()).isEqualTo("off");
          org.assertj.core.api.Assertions.assertThat(c.after()).startsWith("success rate (stdev factor 1.9");
        });
    org.assertj.core.api.Assertions.assertThat(PlanDiff.between(on, off).ofKind(Change.Kind.OUTLIER_DETECTION))
        .singleElement().satisfies(c -> org.assertj.core.api.Assertions.assertThat(c.after()).isEqualTo("off"));
    org.assertj.core.api.Assertions.assertThat(PlanDiff.between(on, on).changes()).isEmpty();
  }

  @Test
  void theAssertionsSayWhatTheyFound() {
    assertThatThrownBy(() -> assertThat(cluster(null).plan()).cluster("payments")
        .hasOutlierDetection(io.jxds.api.model.OutlierDetection.defaults()))
        .hasMessageContaining("Expected cluster payments to run outlier detection")
        .hasMessageContaining("but it is off");
    assertThatThrownBy(() -> assertThat(cluster(OutlierDetection.getDefaultInstance()).plan()).cluster("payments")
        .hasOutlierDetectionOff())
        .hasMessageContaining("Expected cluster payments to run no outlier detection, but it runs");
  }
}
