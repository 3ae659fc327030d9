package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.client.csds.XdsCsdsService;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fixtures' {@link XdsTestBed} with the real jxds channel it was made for: a user's "my
 * resources make a gRPC client route 75/25" is the resources and one wait.
 */
class XdsTestBedEndToEndTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void localityWeightsThreeToOneRouteAJxdsChannel75To25() {
    List<TestBackend> b = bed.backends().start(2);
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(3).endpoint(b.get(0).ip(), b.get(0).port(), HEALTHY))
        .locality("r", "b", "", l -> l.weight(1).endpoint(b.get(1).ip(), b.get(1).port(), HEALTHY))
        .build());

    Map<String, Integer> window =
        bed.awaitShares(bed.newChannel("payments"), Map.of(b.get(0), 0.75, b.get(1), 0.25), 0.05);

    // A window of 1 / 0.05² RPCs, each answered by the backend its locality weight sends it to.
    assertThat(window).containsOnlyKeys("backend-1", "backend-2");
    assertThat(window.get("backend-1")).isBetween(280, 320);
    assertThat(window.get("backend-1") + window.get("backend-2")).isEqualTo(400);
    assertThat(b.get(0).served()).isGreaterThanOrEqualTo(window.get("backend-1"));
  }

  @Test
  void istioClusterNameWorksAsIs() {
    String cluster = "outbound|8080||echo.default.svc.cluster.local";
    TestBackend echo = bed.backends().start("echo");
    bed.ads().setClusters(XdsResources.cluster(cluster).build());
    bed.ads().setEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "a", "", l -> l.weight(1).endpoint(echo.ip(), echo.port(), HEALTHY))
        .build());

    assertThat(BackendCalls.awaitCalls(bed.newChannel(cluster), 5, Poll.DEFAULT_TIMEOUT, w -> w.containsKey("echo")))
        .containsExactly(Map.entry("echo", 5));
    assertThat(bed.ads().streams().subscribedNames(FakeAdsServer.CLUSTER_TYPE_URL))
        .containsExactly(cluster);
  }

  @Test
  void thePooledClientClosesWithTheTestsChannelsSoNoneOutlivesTheTest() throws Exception {
    XdsTestBed another = new XdsTestBed();
    int liveBefore = XdsCsdsService.clientStatus().getConfigCount();
    another.beforeEach(null);
    TestBackend a = another.backends().start("a");
    another.ads().setClusters(XdsResources.cluster("payments").build());
    another.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(1).endpoint(a.ip(), a.port(), HEALTHY))
        .build());
    BackendCalls.awaitCalls(another.newChannel("payments"), 5, Poll.DEFAULT_TIMEOUT, w -> w.containsKey("a"));
    assertThat(XdsCsdsService.clientStatus().getConfigCount()).isEqualTo(liveBefore + 1);

    another.afterEach(null);

    Poll.until("the pooled client closed", () -> XdsCsdsService.clientStatus().getConfigCount() == liveBefore);
  }
}
