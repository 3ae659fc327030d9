package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link XdsTestBed#inProcess()}: the control plane in process, a real jxds channel through it. */
class XdsTestBedInProcessTest {
  @RegisterExtension final XdsTestBed bed = XdsTestBed.inProcess();

  @Test
  void jxdsChannelRoutesThroughAnInProcessControlPlane() {
    assertThat(bed.ads().serverUri()).startsWith("inprocess:");
    List<TestBackend> b = bed.backends().start(2);
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
        .locality("r", "b", "", l -> l.weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY))
        .build());

    Map<String, Integer> window =
        bed.awaitShares(bed.newChannel("payments"), Map.of(b.get(0), 0.75, b.get(1), 0.25), 0.05);

    assertThat(window.get("backend-1")).isBetween(280, 320);
    assertThat(window.get("backend-1") + window.get("backend-2")).isEqualTo(400);
  }
}
