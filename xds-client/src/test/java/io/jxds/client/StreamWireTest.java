package io.jxds.client;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.SynchronizationContext;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the client puts on a real gRPC stream to FakeAdsServer: node features, ACK timing. */
class StreamWireTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private ManagedChannel channel;
  private DefaultXdsClient client;

  private FakeAdsServer server() {
    return ads.server();
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
  }

  // ---- 2. client features ----

  @Test
  void nodeAdvertisesGrpcClientFeaturesKeepingTheOnesGivenWithoutDuplicates() {
    server().setClusters(XdsResources.cluster("a").build());
    channel = server().newClientChannel();
    client =
        XdsClientBuilder.forChannel(channel)
            .node(Node.newBuilder()
                .setId("n")
                .addClientFeatures("custom.feature")
                .addClientFeatures("xds.config.resource-in-sotw")
                .build())
            .build();
    client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), Runnable::run);

    RecordedRequest initial =
        server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL, WAIT);
    assertThat(initial.raw().getNode().getClientFeaturesList())
        .containsExactly(
            "custom.feature", "xds.config.resource-in-sotw", "envoy.lb.does_not_support_overprovisioning");
    RecordedRequest ack = server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
    assertThat(ack.raw().getNode().getClientFeaturesList()).hasSize(3);
  }

  @Test
  void nodeFromTheBootstrapAdvertisesGrpcClientFeatures() throws Exception {
    try (FakeAdsServer loopback = FakeAdsServer.loopback().start()) {
      loopback.setClusters(XdsResources.cluster("a").build());
      client =
          XdsClientBuilder.fromBootstrap(
                  io.jxds.client.internal.bootstrap.BootstrapParser.parse(loopback.bootstrap().build(), "test"))
              .build();
      client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), Runnable::run);

      RecordedRequest initial =
          loopback.requests().await(CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL, WAIT);
      assertThat(initial.raw().getNode().getClientFeaturesList())
          .containsExactly("envoy.lb.does_not_support_overprovisioning", "xds.config.resource-in-sotw");
      client.close();
    }
  }

  @Test
  void resourcesWrappedInAResourceMessageAreAcceptedAsAdvertised() {
    channel = server().newClientChannel();
    client = XdsClientBuilder.forChannel(channel).build();
    RecordingWatcher<TestCluster> watcher = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", watcher, Runnable::run);
    server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == RecordedRequest.Kind.INITIAL, WAIT);

    Any wrapped = Any.pack(Resource.newBuilder()
        .setName("a")
        .setResource(XdsResources.cluster("a").edsServiceName("wrapped").buildAny())
        .build());
    server().faults().sendRaw(DiscoveryResponse.newBuilder()
        .setTypeUrl(CLUSTER_TYPE_URL)
        .setVersionInfo("7")
        .setNonce("raw-1")
        .addResources(wrapped)
        .build());
    server().requests().awaitAck(CLUSTER_TYPE_URL, "7", WAIT);
    Poll.until("wrapped cluster delivered", () -> !watcher.updates().isEmpty());
    assertThat(watcher.updates()).containsExactly(new TestCluster("a", "wrapped"));
  }

  // ---- 4. the ACK does not wait for watcher callbacks ----

  @Test
  void ackIsOnTheWireWhileAnInlineCallbackIsStillRunningAndTheNextResponseWaitsForIt()
      throws Exception {
    server().setClusters(XdsResources.cluster("a").build());
    channel = server().newClientChannel();
    AtomicInteger requested = new AtomicInteger();
    client = XdsClientBuilder.forChannel(ClientInterceptors.intercept(channel, countingRequests(requested))).build();
    // As a balancer's watcher: its executor is the channel's SynchronizationContext, which runs
    // the callback inline on the thread that hands it over when nothing else is running there.
    SynchronizationContext channelContext =
        new SynchronizationContext((t, e) -> { throw new AssertionError(e); });
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    RecordingWatcher<TestCluster> watcher = new RecordingWatcher<>() {
      @Override
      public void onUpdate(TestCluster value) {
        super.onUpdate(value);
        if (updates().size() == 1) {
          entered.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    // Not from this thread: the client's SynchronizationContext drains on the thread that calls
    // watch(), so the response (and the blocking callback) may be handled on it.
    Thread watching = new Thread(() -> client.watch(TestTypes.CLUSTER, "a", watcher, channelContext), "watching");
    watching.setDaemon(true);
    watching.start();

    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    try {
      // The control plane has its ACK although the watcher has not returned yet...
      server().requests().awaitAck(CLUSTER_TYPE_URL, "1", WAIT);
      // ...but flow control still waits for it: no further response has been asked for.
      server().setClusters(XdsResources.cluster("a").edsServiceName("v2").build());
      assertThat(requested.get()).isEqualTo(1);
      assertThat(watcher.updates()).hasSize(1);
    } finally {
      release.countDown();
    }
    server().requests().awaitAck(CLUSTER_TYPE_URL, "2", WAIT);
    Poll.until("v2 delivered", () -> watcher.updates().size() == 2); // flow control resumed
  }

  private static ClientInterceptor countingRequests(AtomicInteger requested) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        // Per stream: a first stream that fails to connect on a busy machine is replaced, and
        // what matters is what the stream that got the response asked for.
        requested.set(0);
        return new SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void request(int numMessages) {
            requested.addAndGet(numMessages);
            super.request(numMessages);
          }
        };
      }
    };
  }
}
