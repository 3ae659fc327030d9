package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Aggregate clusters (gRFC A37, A75) over FakeAdsServer and real backends: failover between the
 * leaves on EDS health, leaves changing under traffic, the cost of resolving the tree, and a
 * cluster changing kind under traffic. No RPC may fail while a leaf has usable endpoints.
 */
class AggregateClusterEndToEndTest {
  private static final String FAILED = "failed: ";

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void unhealthyFirstLeafFailsOverToTheSecondAndBack() {
    List<TestBackend> b = bed.backends().start(3);
    bed.ads().setClusters(
        XdsResources.cluster("global").aggregate("a", "b", "c").build(),
        XdsResources.cluster("a").build(), XdsResources.cluster("b").build(), XdsResources.cluster("c").build());
    bed.ads().setEndpoints(cla("a", b.get(0), HEALTHY), cla("b", b.get(1), HEALTHY), cla("c", b.get(2), HEALTHY));
    ManagedChannel channel = bed.newChannel("global");
    List<String> answered = new ArrayList<>();
    callUntil(channel, b.get(0).name(), answered);
    answered.clear(); // from here on under traffic: no RPC may fail

    bed.ads().putEndpoints(cla("a", b.get(0), UNHEALTHY));
    callUntil(channel, b.get(1).name(), answered);
    bed.ads().putEndpoints(cla("a", b.get(0), HEALTHY));
    callUntil(channel, b.get(0).name(), answered);

    assertNoFailure(answered);
    assertThat(answered).doesNotContain(b.get(2).name());
  }

  /** A new channel's first RPC waits for one CDS round trip per level of the tree, no more. */
  @Test
  void resolvingTheTreeTakesOneCdsRequestPerLevel() {
    List<TestBackend> b = bed.backends().start(3);
    bed.ads().setClusters(
        XdsResources.cluster("global").aggregate("a", "mid").build(),
        XdsResources.cluster("mid").aggregate("b", "c").build(),
        XdsResources.cluster("a").build(), XdsResources.cluster("b").build(), XdsResources.cluster("c").build());
    bed.ads().setEndpoints(cla("a", b.get(0), HEALTHY), cla("b", b.get(1), HEALTHY), cla("c", b.get(2), HEALTHY));

    assertThat(BackendCalls.call(bed.newChannel("global"))).isEqualTo(b.get(0).name());

    List<Set<String>> nameSets = new ArrayList<>();
    for (RecordedRequest r : bed.ads().requests().ofType(FakeAdsServer.CLUSTER_TYPE_URL)) {
      Set<String> names = new TreeSet<>(r.resourceNames());
      if (nameSets.isEmpty() || !nameSets.get(nameSets.size() - 1).equals(names)) {
        nameSets.add(names);
      }
    }
    // Level 0 (the root), level 1 (a and mid at once), level 2 (b and c at once).
    assertThat(nameSets).containsExactly(
        Set.of("global"), Set.of("global", "a", "mid"), Set.of("global", "a", "mid", "b", "c"));
  }

  @Test
  void leavesDeletedAddedAndTurnedIntoAggregatesUnderTraffic() {
    List<TestBackend> b = bed.backends().start(3);
    bed.ads().setClusters(
        XdsResources.cluster("global").aggregate("a", "b").build(),
        XdsResources.cluster("a").build(), XdsResources.cluster("b").build(), XdsResources.cluster("d").build());
    bed.ads().setEndpoints(cla("a", b.get(0), HEALTHY), cla("b", b.get(1), HEALTHY), cla("d", b.get(2), HEALTHY));
    ManagedChannel channel = bed.newChannel("global");
    List<String> answered = new ArrayList<>();
    callUntil(channel, b.get(0).name(), answered);
    answered.clear(); // from here on under traffic: no RPC may fail

    bed.ads().removeClusters("a"); // deleted by the control plane: b takes over
    callUntil(channel, b.get(1).name(), answered);
    bed.ads().putClusters(XdsResources.cluster("a").aggregate("d").build()); // back, as an aggregate of d
    callUntil(channel, b.get(2).name(), answered);
    bed.ads().putClusters(XdsResources.cluster("global").aggregate("b", "a").build()); // b first again
    callUntil(channel, b.get(1).name(), answered);

    assertNoFailure(answered);
  }

  @Test
  void clusterChangingKindUnderTrafficHandsOverWithoutAFailedRpc() {
    List<TestBackend> b = bed.backends().start(3);
    TestBackend eds = b.get(0);
    TestBackend dns = b.get(1);
    TestBackend leaf = b.get(2);
    bed.ads().setClusters(XdsResources.cluster("payments").build(), XdsResources.cluster("leaf").build());
    bed.ads().setEndpoints(cla("payments", eds, HEALTHY), cla("leaf", leaf, HEALTHY));
    ManagedChannel channel = bed.newChannel("payments");
    List<String> answered = new ArrayList<>();
    callUntil(channel, eds.name(), answered);
    answered.clear(); // from here on under traffic: no RPC may fail

    bed.ads().putClusters(XdsResources.cluster("payments").logicalDns("localhost", dns.port()).build());
    callUntil(channel, dns.name(), answered);
    bed.ads().putClusters(XdsResources.cluster("payments").aggregate("leaf").build());
    callUntil(channel, leaf.name(), answered);
    bed.ads().putClusters(XdsResources.cluster("payments").build());
    callUntil(channel, eds.name(), answered);

    assertNoFailure(answered);
  }

  private static ClusterLoadAssignment cla(String cluster, TestBackend backend, HealthStatus health) {
    return XdsResources.endpoints(cluster)
        .locality("r", "a", "", l -> l.weight(1).endpoint(backend.ip(), backend.port(), health))
        .build();
  }

  /** RPCs one after another until five in a row reach {@code backend}; every answer is kept. */
  private static void callUntil(ManagedChannel channel, String backend, List<String> answered) {
    int[] inARow = {0};
    Poll.until(() -> backend + " to answer five RPCs in a row; last answers: " + tail(answered),
        Poll.DEFAULT_TIMEOUT, () -> {
          String name = call(channel);
          answered.add(name);
          inARow[0] = name.equals(backend) ? inARow[0] + 1 : 0;
          return inARow[0] >= 5;
        });
  }

  /** The backend's name, or "failed: " and the status. */
  private static String call(ManagedChannel channel) {
    try {
      return new String(ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD,
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]), StandardCharsets.UTF_8);
    } catch (StatusRuntimeException e) {
      return FAILED + e.getStatus();
    }
  }

  private static void assertNoFailure(List<String> answered) {
    assertThat(answered).noneMatch(a -> a.startsWith(FAILED));
  }

  private static List<String> tail(List<String> answered) {
    return answered.subList(Math.max(0, answered.size() - 20), answered.size());
  }
}
