package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.FAILED;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static io.jxds.testing.BackendCalls.calls;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jxds.api.ResourceTypes;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * least_request, ring_hash and maglev clusters end to end: FakeAdsServer on a loopback port, real
 * backends on 127.0.0.1, channels on {@code xds-cluster:///payments}.
 */
class MeshPoliciesEndToEndTest {
  private static final Metadata.Key<String> USER = Metadata.Key.of("x-user-id", Metadata.ASCII_STRING_MARSHALLER);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();

  @Test
  void leastRequestSendsFewerNewRpcsToTheEndpointHoldingSlowOnes() throws Exception {
    TestBackend slow = backends.start("slow");
    TestBackend fast = backends.start("fast");
    ads.setClusters(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST).build());
    ads.setEndpoints(endpoints(slow).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("slow", 0) == 5);
    List<Status> closed = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 20; i++) {
      BackendCalls.hold(channel, closed);
    }
    Poll.until("20 slow RPCs held on slow", Duration.ofSeconds(10), () -> slow.heldStreams() == 20);

    ads.setEndpoints(endpoints(slow, fast).build());
    awaitCalls(channel, 20, Duration.ofSeconds(10), w -> w.containsKey("fast"));
    Map<String, Integer> split = calls(channel, 2_000);

    // Choice count 2 over two endpoints: slow (20 outstanding) wins only when both draws are it,
    // 1 in 4; round robin would give it 1 in 2. 2 000 RPCs: a standard deviation of 1 point, so
    // [19 %, 31 %] is six of them each way.
    assertThat(split).doesNotContainKey(FAILED);
    assertThat(100.0 * split.getOrDefault("slow", 0) / 2_000).as("slow's share in %s", split).isBetween(19.0, 31.0);
    slow.releaseHeld(20);
    Poll.until("held RPCs close", () -> closed.size() == 20);
    assertThat(closed).allMatch(Status::isOk);
  }

  @Test
  void ringHashHeaderSendsEachUserToOneBackend() throws Exception {
    startThree();
    ads.setClusters(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.RING_HASH).build());
    ads.setEndpoints(endpoints(backends.get("a"), backends.get("b"), backends.get("c")).build());
    ManagedChannel channel = bed.track(Grpc.newChannelBuilder(XdsClusterPolicy.target("payments"),
            InsecureChannelCredentials.create())
        .defaultServiceConfig(XdsClusterPolicy.serviceConfig("payments", "x-user-id"))
        .disableServiceConfigLookUp()
        .build());

    Map<String, String> home = new HashMap<>();
    for (int round = 0; round < 4; round++) {
      for (int u = 0; u < 30; u++) {
        Metadata headers = new Metadata();
        headers.put(USER, "user-" + u);
        String backend = call(channel, CallOptions.DEFAULT, headers);
        assertThat(backend).isNotEqualTo(FAILED);
        assertThat(home.putIfAbsent("user-" + u, backend)).as("user-%d's backend", u).isIn(null, backend);
      }
    }
    assertThat(new HashSet<>(home.values())).as("30 users over three backends").hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void maglevCallOptionHashSendsEachKeyToOneBackend() throws Exception {
    startThree();
    ads.setClusters(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.MAGLEV).build());
    ads.setEndpoints(endpoints(backends.get("a"), backends.get("b"), backends.get("c")).build());
    ManagedChannel channel = channel();

    Map<Long, String> home = new HashMap<>();
    for (int round = 0; round < 4; round++) {
      for (long key = 0; key < 30; key++) {
        long hash = key * 0x9E3779B97F4A7C15L;
        String backend = call(channel, CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, hash),
            new Metadata());
        assertThat(backend).isNotEqualTo(FAILED);
        assertThat(home.putIfAbsent(key, backend)).as("key %d's backend", key).isIn(null, backend);
      }
    }
    assertThat(new HashSet<>(home.values())).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void switchingRoundRobinToRingHashAndBackLosesNoRpc() throws Exception {
    startThree();
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(endpoints(backends.get("a"), backends.get("b"), backends.get("c")).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 30, Duration.ofSeconds(10), w -> w.size() == 3 && !w.containsKey(FAILED));

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger done = new AtomicInteger();
    List<String> failures = new CopyOnWriteArrayList<>();
    Thread caller = new Thread(() -> {
      while (running.get()) {
        String backend = call(channel, CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, 42L),
            new Metadata());
        if (backend.equals(FAILED)) {
          failures.add(backend);
        }
        done.incrementAndGet();
      }
    });
    caller.setDaemon(true);
    caller.start();
    try {
      ads.setClusters(XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.RING_HASH).build());
      // Under ring hash, one hash reaches one backend: wait until 20 calls in a row did.
      awaitOneBackendFor(channel, 42L);
      int afterSwitch = done.get();
      ads.setClusters(XdsResources.cluster("payments").build());
      awaitCalls(channel, 30, Duration.ofSeconds(10), w -> w.size() == 3 && !w.containsKey(FAILED));
      Poll.until("calls continue after both switches", () -> done.get() > afterSwitch + 50);
    } finally {
      running.set(false);
      caller.join(10_000);
    }
    assertThat(failures).as("RPCs failed during the policy switches").isEmpty();
  }

  @Test
  void policyWithSettingsOutOfRangeIsNackedNamingTheFieldAndTheLastGoodClusterServes() throws Exception {
    TestBackend a = backends.start("a");
    ads.setClusters(XdsResources.cluster("payments").build());
    ads.setEndpoints(endpoints(a).build());
    ManagedChannel channel = channel();
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    var bad = XdsResources.cluster("payments").lbPolicy(Cluster.LbPolicy.LEAST_REQUEST);
    bad.proto().setLeastRequestLbConfig(Cluster.LeastRequestLbConfig.newBuilder()
        .setChoiceCount(com.google.protobuf.UInt32Value.of(11)));
    ads.setClusters(bad.build());

    assertThat(ads.requests().awaitNack(ResourceTypes.CLUSTER_TYPE_URL, Duration.ofSeconds(10)).errorMessage())
        .contains("cluster \"payments\": least_request_lb_config.choice_count must be in [2, 10], got 11");
    assertThat(calls(channel, 20)).containsOnlyKeys("a");
  }

  /** Waits until 20 calls in a row with {@code hash} reach one backend (ring hash took over). */
  private static void awaitOneBackendFor(ManagedChannel channel, long hash) {
    Poll.until("one backend for hash " + hash, Duration.ofSeconds(10), () -> {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < 20; i++) {
        seen.add(call(channel, CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, hash), new Metadata()));
      }
      return seen.size() == 1 && !seen.contains(FAILED);
    });
  }

  private void startThree() throws Exception {
    backends.start("a");
    backends.start("b");
    backends.start("c");
  }

  /** One unary RPC with these options and headers: the backend's name, or FAILED. */
  private static String call(ManagedChannel channel, CallOptions options, Metadata headers) {
    Channel withHeaders = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    try {
      byte[] reply = ClientCalls.blockingUnaryCall(withHeaders, TestBackend.NAME_METHOD,
          options.withDeadlineAfter(5, TimeUnit.SECONDS), new byte[0]);
      return new String(reply, StandardCharsets.UTF_8);
    } catch (StatusRuntimeException e) {
      return FAILED;
    }
  }

  private ManagedChannel channel() {
    return bed.newChannel("payments");
  }

  private static EndpointsBuilder endpoints(TestBackend... backends) {
    return XdsResources.endpoints("payments").locality("r", "a", "", l -> {
      l.priority(0).weight(1);
      for (TestBackend b : backends) {
        l.endpoint("127.0.0.1", b.port(), HEALTHY);
      }
    });
  }
}
