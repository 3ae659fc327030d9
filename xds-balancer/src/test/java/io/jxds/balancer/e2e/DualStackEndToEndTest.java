package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.grpc.ManagedChannel;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Dual-stack endpoints (gRFC A61, EDS {@code additional_addresses}) over FakeAdsServer and real
 * backends: an endpoint whose first address refuses connections and whose second is a real backend
 * serves RPCs through the second, as one endpoint with its own weight.
 */
class DualStackEndToEndTest {
  private static final int RPCS = 400;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Cluster.LbPolicy.class, names = {"ROUND_ROBIN", "LEAST_REQUEST"})
  void endpointWhoseFirstAddressRefusesServesThroughItsSecondWithItsWeight(Cluster.LbPolicy policy)
      throws Exception {
    List<TestBackend> b = bed.backends().start(2);
    TestBackend dual = b.get(0);
    TestBackend single = b.get(1);
    int refusing = refusingPort();
    bed.ads().setClusters(XdsResources.cluster("payments").lbPolicy(policy).build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(1)
            .endpoint("127.0.0.1", refusing, HEALTHY, 3).additionalAddress(dual.ip(), dual.port())
            .endpoint(single.ip(), single.port(), HEALTHY, 1))
        .build());
    ManagedChannel channel = bed.newChannel("payments");
    BackendCalls.awaitCalls(channel, 20, Poll.DEFAULT_TIMEOUT,
        w -> w.containsKey(dual.name()) && w.containsKey(single.name()));

    Map<String, Integer> answered = BackendCalls.calls(channel, RPCS);

    assertThat(answered).doesNotContainKey(BackendCalls.FAILED);
    // One endpoint of weight 3 against one of weight 1: 3/4 of the RPCs, not 3/5 or 1/2.
    assertThat(BackendCalls.share(answered, dual.name())).as("share of the dual-stack endpoint in %s", answered)
        .isBetween(0.70, 0.80);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Cluster.LbPolicy.class, names = {"RING_HASH", "MAGLEV"})
  void hashPoliciesConnectThroughTheSecondAddressToo(Cluster.LbPolicy policy) throws Exception {
    List<TestBackend> b = bed.backends().start(2);
    TestBackend dual = b.get(0);
    TestBackend single = b.get(1);
    int refusing = refusingPort();
    bed.ads().setClusters(XdsResources.cluster("payments").lbPolicy(policy).build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(1)
            .endpoint("127.0.0.1", refusing, HEALTHY).additionalAddress(dual.ip(), dual.port())
            .endpoint(single.ip(), single.port(), HEALTHY))
        .build());
    ManagedChannel channel = bed.newChannel("payments");

    Map<String, Integer> answered = BackendCalls.awaitCalls(channel, 100, Poll.DEFAULT_TIMEOUT,
        w -> w.containsKey(dual.name()) && w.containsKey(single.name()) && !w.containsKey(BackendCalls.FAILED));

    assertThat(answered).containsOnlyKeys(dual.name(), single.name());
  }

  /** A loopback port nothing listens on (bound, then closed): connections to it are refused. */
  private static int refusingPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
