package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.awaitCalls;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Circuit breaking ({@code circuit_breakers.thresholds[].max_requests}, gRFC A32) under bursts, on
 * real channels: a burst of streams started before any of them is open must not get more than
 * {@code max_requests} through. Each test uses its own cluster name: the counter is per (cluster,
 * EDS service name) for the whole process.
 */
class CircuitBreakingEndToEndTest {
  private static final int BURST = 100;
  private static final int MAX_REQUESTS = 5;

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();

  @Test
  void concurrentBurstOfStreamsOnAReadyChannelAdmitsAtMostMaxRequests() throws Exception {
    TestBackend a = backends.start("a");
    String cluster = "burst-ready";
    ads.setClusters(XdsResources.cluster(cluster).maxRequests(MAX_REQUESTS).build());
    ads.setEndpoints(oneEndpoint(cluster, a));
    ManagedChannel channel = bed.newChannel(cluster);
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);
    List<Status> closed = new CopyOnWriteArrayList<>();

    ExecutorService threads = Executors.newFixedThreadPool(BURST);
    try {
      CountDownLatch ready = new CountDownLatch(BURST);
      CountDownLatch go = new CountDownLatch(1);
      for (int i = 0; i < BURST; i++) {
        threads.execute(() -> {
          ready.countDown();
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          BackendCalls.hold(channel, closed);
        });
      }
      ready.await(10, TimeUnit.SECONDS);
      go.countDown();
      Poll.until(() -> "every stream held or refused: held " + a.heldStreams() + ", closed " + closed.size(),
          Duration.ofSeconds(10), () -> a.heldStreams() + closed.size() == BURST);
    } finally {
      threads.shutdownNow();
    }

    assertThat(a.heldStreams()).as("streams open at the backend").isEqualTo(MAX_REQUESTS);
    assertThat(closed).hasSize(BURST - MAX_REQUESTS).allSatisfy(s -> assertThat(s.getDescription())
        .isEqualTo("cluster " + cluster + ": max concurrent requests " + MAX_REQUESTS + " exceeded"));
    a.releaseHeld(MAX_REQUESTS);
  }

  @Test
  void burstOfQueuedStreamsReleasedAtOnceAdmitsAtMostMaxRequests() throws Exception {
    TestBackend a = backends.start("a");
    String cluster = "burst-queued";
    ads.setClusters(XdsResources.cluster(cluster).maxRequests(MAX_REQUESTS).build());
    ManagedChannel channel = bed.newChannel(cluster);
    List<Status> closed = new CopyOnWriteArrayList<>();
    // No endpoints yet: every stream waits in the channel for a picker that can serve it.
    for (int i = 0; i < BURST; i++) {
      BackendCalls.hold(channel, closed);
    }
    assertThat(a.heldStreams()).isZero();
    assertThat(closed).isEmpty();

    ads.setEndpoints(oneEndpoint(cluster, a));

    Poll.until(() -> "every stream held or refused: held " + a.heldStreams() + ", closed " + closed.size(),
        Duration.ofSeconds(10), () -> a.heldStreams() + closed.size() == BURST);
    assertThat(a.heldStreams()).as("streams open at the backend").isEqualTo(MAX_REQUESTS);
    assertThat(closed).hasSize(BURST - MAX_REQUESTS);
    a.releaseHeld(MAX_REQUESTS);
  }

  @Test
  void callsCancelledBeforeTheyStartAreNotCounted() throws Exception {
    TestBackend a = backends.start("a");
    String cluster = "burst-cancelled";
    ads.setClusters(XdsResources.cluster(cluster).maxRequests(MAX_REQUESTS).build());
    ManagedChannel channel = bed.newChannel(cluster);
    List<Status> cancelled = new CopyOnWriteArrayList<>();
    List<ClientCall<byte[], byte[]>> queued = new ArrayList<>();
    for (int i = 0; i < 2 * MAX_REQUESTS; i++) {
      queued.add(BackendCalls.hold(channel, cancelled));
    }
    // No endpoints yet: each waits in the channel, and is cancelled there.
    for (ClientCall<byte[], byte[]> call : queued) {
      call.cancel("changed my mind", null);
    }
    Poll.until("every queued call cancelled", () -> cancelled.size() == queued.size());

    ads.setEndpoints(oneEndpoint(cluster, a));
    awaitCalls(channel, 5, Duration.ofSeconds(10), w -> w.getOrDefault("a", 0) == 5);

    List<Status> closed = new CopyOnWriteArrayList<>();
    for (int i = 0; i < MAX_REQUESTS + 1; i++) {
      int held = a.heldStreams();
      int refused = closed.size();
      BackendCalls.hold(channel, closed);
      Poll.until("stream " + i + " settles", () -> a.heldStreams() > held || closed.size() > refused);
    }
    assertThat(a.heldStreams()).as("every slot free for new calls").isEqualTo(MAX_REQUESTS);
    assertThat(closed).hasSize(1);
    a.releaseHeld(MAX_REQUESTS);
  }

  private static io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment oneEndpoint(
      String cluster, TestBackend backend) {
    return XdsResources.endpoints(cluster)
        .locality("r", "a", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.port(), HEALTHY))
        .build();
  }
}
