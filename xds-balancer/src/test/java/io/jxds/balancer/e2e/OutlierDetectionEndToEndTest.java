package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.FAILED;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Outlier detection (gRFC A50) on a real channel: three real backends, one of them sick (it accepts
 * connections and fails every RPC), which the control plane still lists as HEALTHY.
 */
class OutlierDetectionEndToEndTest {
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();
  private SickBackend sickBackend;

  @AfterEach
  void stopSickBackend() throws InterruptedException {
    if (sickBackend != null) {
      sickBackend.close();
    }
  }

  @Test
  void sickEndpointIsEjectedWithinThreeIntervalsAndGetsTrafficAgainAfterItHeals() throws Exception {
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    sickBackend = new SickBackend();
    int sickPort = sickBackend.port();
    String cluster = "outliers";
    ads.setClusters(XdsResources.cluster(cluster)
        .failurePercentageEjection(INTERVAL, Duration.ofSeconds(2), 50, 3, 10, 34)
        .build());
    ads.setEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "z", "", l -> l.priority(0).weight(1)
            .endpoint("127.0.0.1", a.port(), HEALTHY)
            .endpoint("127.0.0.1", b.port(), HEALTHY)
            .endpoint("127.0.0.1", sickPort, HEALTHY))
        .build());
    ManagedChannel channel = bed.newChannel(cluster);
    awaitCalls(channel, 30, Duration.ofSeconds(10),
        w -> w.containsKey("a") && w.containsKey("b") && w.containsKey(FAILED));

    // The sick endpoint has had traffic since now; it must be out within interval x 3.
    long start = System.nanoTime();
    Map<String, Integer> window = calls(channel, 30);
    while (window.containsKey(FAILED) && System.nanoTime() - start < INTERVAL.multipliedBy(10).toNanos()) {
      window = calls(channel, 30);
    }
    Duration ejectedAfter = Duration.ofNanos(System.nanoTime() - start);
    assertThat(window).as("calls once ejected").doesNotContainKey(FAILED);
    assertThat(ejectedAfter).as("time to eject").isLessThanOrEqualTo(INTERVAL.multipliedBy(3));

    int sickBefore = sickBackend.calls.get();
    Map<String, Integer> after = calls(channel, 60);
    assertThat(after).containsOnlyKeys("a", "b");
    assertThat(after.get("a")).isBetween(20, 40);
    assertThat(sickBackend.calls.get()).as("calls reaching the sick backend while ejected").isEqualTo(sickBefore);

    sickBackend.sick.set(false); // healed: back after the ejection time (2 s), at a sweep
    awaitCalls(channel, 30, Duration.ofSeconds(15), w -> w.containsKey("healed") && !w.containsKey(FAILED));
    Map<String, Integer> healed = calls(channel, 60);
    assertThat(healed).containsOnlyKeys("a", "b", "healed");
  }
}
