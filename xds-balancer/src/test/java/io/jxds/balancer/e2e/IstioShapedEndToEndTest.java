package io.jxds.balancer.e2e;

import static io.jxds.testing.BackendCalls.FAILED;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.IstioClusterBuilder;
import io.jxds.testing.IstioResources;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A jxds client in an Istio mesh: FakeAdsServer serves clusters and assignments shaped as istiod
 * sends them to proxyless gRPC ({@link IstioResources}), a channel on the percent-encoded target of
 * the Istio cluster name routes to real backends on 127.0.0.1.
 */
class IstioShapedEndToEndTest {
  private static final String HOST = "echo.default.svc.cluster.local";
  private static final int RPCS = 1_600;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();

  @Test
  void clusterWithoutDestinationRuleSplitsByLocalityAndEndpointWeight() throws Exception {
    TestBackend a1 = backends.start("a1");
    TestBackend a2 = backends.start("a2");
    TestBackend b1 = backends.start("b1");
    ads.setClusters(IstioResources.cluster(HOST, 8080).build());
    // Locality weights are the sums of endpoint weights, as istiod computes them: 4 and 4.
    ads.setEndpoints(IstioResources.endpoints(HOST, 8080)
        .locality("us-east1/us-east1-b/rack-1")
        .endpoint("echo-a1", "127.0.0.1", a1.port(), 1)
        .endpoint("echo-a2", "127.0.0.1", a2.port(), 3)
        .locality("us-east1/us-east1-c/rack-1")
        .endpoint("echo-b1", "127.0.0.1", b1.port(), 4)
        .build());
    ManagedChannel channel = channel(IstioResources.clusterName(HOST, 8080));
    awaitCalls(channel, 40, Duration.ofSeconds(10), w -> w.keySet().containsAll(List.of("a1", "a2", "b1")));

    Map<String, Integer> split = calls(channel, RPCS);

    // Smooth weighted round robin at both levels: the shares are exact over whole periods, so
    // 2 points of slack only absorbs where the window starts.
    assertShare(split, "a1", 12.5);
    assertShare(split, "a2", 37.5);
    assertShare(split, "b1", 50.0);
    assertThat(split).doesNotContainKey(FAILED);
  }

  @Test
  void subsetClusterRoutesToTheSubsetsEndpoints() throws Exception {
    TestBackend v1 = backends.start("v1");
    backends.start("v2");
    ads.setClusters(IstioResources.subsetCluster(HOST, 8080, "v1").roundRobin().build());
    ads.setEndpoints(IstioResources.subsetEndpoints(HOST, 8080, "v1").canonicalRevision("v1")
        .locality("us-east1/us-east1-b")
        .endpoint("echo-v1", "127.0.0.1", v1.port())
        .build());
    ManagedChannel channel = channel(IstioResources.subsetClusterName(HOST, 8080, "v1"));

    awaitCalls(channel, 10, Duration.ofSeconds(10), w -> w.getOrDefault("v1", 0) == 10);
  }

  @Test
  void http2MaxRequestsLimitsConcurrentStreams() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(IstioResources.cluster(HOST, 8080).http2MaxRequests(2).build());
    ads.setEndpoints(IstioResources.endpoints(HOST, 8080)
        .locality("us-east1/us-east1-b/rack-1").endpoint("echo-a", "127.0.0.1", a.port())
        .build());
    ManagedChannel channel = channel(IstioResources.clusterName(HOST, 8080));
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    List<Status> closed = new CopyOnWriteArrayList<>();

    for (int i = 0; i < 3; i++) {
      int heldBefore = a.heldStreams();
      int closedBefore = closed.size();
      BackendCalls.hold(channel, closed);
      Poll.until("stream " + i + " settles", Duration.ofSeconds(5),
          () -> a.heldStreams() > heldBefore || closed.size() > closedBefore);
    }

    assertThat(a.heldStreams()).isEqualTo(2);
    assertThat(closed).singleElement().satisfies(s -> assertThat(s.getDescription())
        .isEqualTo("cluster outbound|8080||echo.default.svc.cluster.local: max concurrent requests 2 exceeded"));
    a.releaseHeld(2);
  }

  /**
   * What istiod sends for a DestinationRule {@code loadBalancer}: LEAST_REQUEST, RING_HASH (minimum
   * ring size 1024) for a {@code consistentHash}, MAGLEV for {@code consistentHash.maglev}. Each is
   * accepted and serves every RPC. Least request reaches both backends; ring hash and maglev, with
   * no hash key configured, hash each RPC at random but send it to the first READY endpoint from
   * there (gRFC A76), so they may keep to one backend while that is the only one connected.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"LEAST_REQUEST", "RING_HASH", "MAGLEV"})
  void destinationRuleLbPoliciesServeEveryRpc(String policy) throws Exception {
    UnaryOperator<IstioClusterBuilder> destinationRule = switch (policy) {
      case "LEAST_REQUEST" -> IstioClusterBuilder::leastRequest;
      case "RING_HASH" -> IstioClusterBuilder::consistentHash;
      default -> IstioClusterBuilder::maglev;
    };
    TestBackend a = backends.start("a");
    TestBackend b = backends.start("b");
    ads.setClusters(destinationRule.apply(IstioResources.cluster(HOST, 8080)).build());
    ads.setEndpoints(IstioResources.endpoints(HOST, 8080)
        .locality("us-east1/us-east1-b/rack-1")
        .endpoint("echo-a", "127.0.0.1", a.port())
        .endpoint("echo-b", "127.0.0.1", b.port())
        .build());
    ManagedChannel channel = channel(IstioResources.clusterName(HOST, 8080));

    Map<String, Integer> window = policy.equals("LEAST_REQUEST")
        ? awaitCalls(channel, 40, Duration.ofSeconds(10), w -> w.containsKey("a") && w.containsKey("b"))
        : awaitCalls(channel, 40, Duration.ofSeconds(10), w -> !w.containsKey(FAILED));
    assertThat(window).doesNotContainKey(FAILED);
    assertThat(window.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(40);
    assertThat(ads.requests().lastNack(FakeAdsServer.CLUSTER_TYPE_URL)).isEmpty();
  }

  private ManagedChannel channel(String cluster) {
    return bed.newChannel(cluster);
  }

  /** Asserts that {@code name} took {@code expectedPercent} of the RPCs in {@code split}, within 2 points. */
  private static void assertShare(Map<String, Integer> split, String name, double expectedPercent) {
    assertThat(100 * BackendCalls.share(split, name)).as("share of %s in %s", name, split)
        .isBetween(expectedPercent - 2, expectedPercent + 2);
  }
}
