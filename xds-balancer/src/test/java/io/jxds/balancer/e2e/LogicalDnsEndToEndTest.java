package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LOGICAL_DNS clusters (gRFC A37) over FakeAdsServer and real backends: the name is resolved by
 * gRPC's DNS resolver ({@code localhost} and IP literals need no DNS server).
 */
class LogicalDnsEndToEndTest {
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();

  @Test
  void localhostClusterServesRpcs() {
    TestBackend legacy = bed.backends().start("legacy");
    bed.ads().setClusters(XdsResources.cluster("legacy").logicalDns("localhost", legacy.port()).build());

    // A window of five RPCs all answered by the backend (a first RPC past its deadline on a loaded
    // machine is not what this test is about).
    assertThat(BackendCalls.awaitCalls(bed.newChannel("legacy"), 5, Poll.DEFAULT_TIMEOUT,
        w -> w.equals(Map.of("legacy", 5)))).containsExactly(Map.entry("legacy", 5));
    // Nothing is watched for a LOGICAL_DNS cluster's endpoints.
    assertThat(bed.ads().streams().subscribedNames(FakeAdsServer.ENDPOINTS_TYPE_URL)).isEmpty();
  }

  @Test
  void ipLiteralClusterServesRpcs() {
    TestBackend legacy = bed.backends().start("legacy");
    bed.ads().setClusters(XdsResources.cluster("legacy").logicalDns(legacy.ip(), legacy.port()).build());

    // A window of five RPCs all answered by the backend (a first RPC past its deadline on a loaded
    // machine is not what this test is about).
    assertThat(BackendCalls.awaitCalls(bed.newChannel("legacy"), 5, Poll.DEFAULT_TIMEOUT,
        w -> w.equals(Map.of("legacy", 5)))).containsExactly(Map.entry("legacy", 5));
  }

  @Test
  void unresolvableNameFailsRpcsNamingClusterAndName() {
    bed.ads().setClusters(XdsResources.cluster("legacy").logicalDns("nonexistent.invalid", 443).build());
    ManagedChannel channel = bed.newChannel("legacy");

    AtomicReference<Status> last = new AtomicReference<>();
    Poll.until(() -> "an UNAVAILABLE naming the cluster and the name; last: " + last.get(), Poll.DEFAULT_TIMEOUT,
        () -> namesClusterAndName(last, BackendCalls.outcome(channel).orElse(null)));
  }

  private static boolean namesClusterAndName(AtomicReference<Status> last, Status status) {
    last.set(status);
    return status != null && status.getCode() == Status.Code.UNAVAILABLE && status.getDescription() != null
        && status.getDescription().contains("cluster legacy")
        && status.getDescription().contains("nonexistent.invalid:443");
  }

  @Test
  void clusterSwitchingBetweenEdsAndLogicalDnsKeepsServing() {
    List<TestBackend> b = bed.backends().start(2);
    TestBackend eds = b.get(0);
    TestBackend dns = b.get(1);
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    bed.ads().setEndpoints(XdsResources.endpoints("payments")
        .locality("r", "a", "", l -> l.weight(1).endpoint(eds.ip(), eds.port(), HEALTHY))
        .build());
    ManagedChannel channel = bed.newChannel("payments");
    BackendCalls.awaitCalls(channel, 5, Poll.DEFAULT_TIMEOUT, w -> w.getOrDefault(eds.name(), 0) == 5);

    List<String> answered = new ArrayList<>();
    bed.ads().setClusters(XdsResources.cluster("payments").logicalDns("localhost", dns.port()).build());
    callUntil(channel, dns.name(), answered);
    bed.ads().setClusters(XdsResources.cluster("payments").build());
    callUntil(channel, eds.name(), answered);
    bed.ads().setClusters(XdsResources.cluster("payments").logicalDns(dns.ip(), dns.port()).build());
    callUntil(channel, dns.name(), answered);

    assertThat(answered).doesNotContain(BackendCalls.FAILED).contains(eds.name(), dns.name());
  }

  /** RPCs one after another until five in a row reach {@code backend}; every answer is kept. */
  private static void callUntil(ManagedChannel channel, String backend, List<String> answered) {
    int[] inARow = {0};
    Poll.until(() -> backend + " to answer five RPCs in a row; last answers: " + tail(answered),
        Poll.DEFAULT_TIMEOUT, () -> {
          String name = BackendCalls.call(channel);
          answered.add(name);
          inARow[0] = name.equals(backend) ? inARow[0] + 1 : 0;
          return inARow[0] >= 5;
        });
  }

  private static List<String> tail(List<String> answered) {
    return answered.subList(Math.max(0, answered.size() - 20), answered.size());
  }
}
