package io.jxds.client.csds;

import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientConfig.GenericXdsConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import io.envoyproxy.envoy.type.matcher.v3.NodeMatcher;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceWatcher;
import io.jxds.client.DefaultXdsClient;
import io.jxds.client.XdsClientBuilder;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.Poll;
import io.jxds.testing.XdsResources;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CSDS through the generated stub, against a real server on 127.0.0.1 holding the service. */
class XdsCsdsServiceTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();

  private Server csdsServer;
  private ManagedChannel csdsChannel;
  private DefaultXdsClient client;

  @BeforeEach
  void startCsds() throws Exception {
    csdsServer = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))
        .addService(new XdsCsdsService())
        .build()
        .start();
    csdsChannel = Grpc.newChannelBuilder("127.0.0.1:" + csdsServer.getPort(), InsecureChannelCredentials.create())
        .build();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    csdsChannel.shutdownNow();
    csdsServer.shutdownNow();
  }

  @Test
  void fetchReportsEveryResourceInEachState() {
    Cluster good = XdsResources.cluster("good").build();
    ads.server().setClusters(good, XdsResources.cluster("bad").build(), XdsResources.cluster("gone").build());
    client = XdsClientBuilder.forTarget(ads.server().serverUri(), InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId("csds-states").setCluster("csds-test").build())
        .resourceTimeout(Duration.ofHours(1)) // "pending" stays REQUESTED for the whole test
        .build();
    for (String name : List.of("good", "bad", "gone")) {
      client.watchCluster(name, noop(), Runnable::run);
    }
    client.watchEndpoints("pending", noop(), Runnable::run);
    Poll.until("three clusters acked", () -> client.status().resources().stream()
        .filter(r -> r.typeUrl().equals(CLUSTER_TYPE_URL) && r.state() == ResourceState.ACKED).count() == 3);
    String goodVersion = ads.server().version(CLUSTER_TYPE_URL);
    ads.server().putClusters(XdsResources.cluster("bad").edsConfigPath("/etc/eds.yaml").build());
    ads.server().requests().awaitNack(CLUSTER_TYPE_URL, WAIT);
    ads.server().removeClusters("gone");
    Poll.until("gone deleted", () -> client.status().resource(CLUSTER_TYPE_URL, "gone")
        .map(r -> r.state() == ResourceState.DOES_NOT_EXIST).orElse(false));
    String badVersion = ads.server().version(CLUSTER_TYPE_URL); // "bad" is still invalid in it

    ClientConfig config = ours(fetch(ClientStatusRequest.getDefaultInstance()), "csds-states");

    assertThat(config.getNode().getCluster()).isEqualTo("csds-test");
    assertThat(config.getNode().getClientFeaturesList()).contains("xds.config.resource-in-sotw");
    assertThat(config.getClientScope()).isEqualTo(ads.server().serverUri());
    GenericXdsConfig goodConfig = resource(config, CLUSTER_TYPE_URL, "good");
    assertThat(goodConfig.getClientStatus()).isEqualTo(ClientResourceStatus.ACKED);
    assertThat(goodConfig.getXdsConfig().getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(goodConfig.getXdsConfig().getValue()).isEqualTo(good.toByteString());
    assertThat(goodConfig.getLastUpdated().getSeconds()).isPositive();
    assertThat(goodConfig.getVersionInfo()).isNotEmpty();
    assertThat(goodConfig.hasErrorState()).isFalse();

    GenericXdsConfig badConfig = resource(config, CLUSTER_TYPE_URL, "bad");
    assertThat(badConfig.getClientStatus()).isEqualTo(ClientResourceStatus.NACKED);
    assertThat(badConfig.getVersionInfo()).as("the last good version stays").isEqualTo(goodVersion);
    assertThat(badConfig.getXdsConfig().getValue()).as("the last good value stays")
        .isEqualTo(XdsResources.cluster("bad").build().toByteString());
    assertThat(badConfig.getErrorState().getVersionInfo()).isEqualTo(badVersion);
    assertThat(badConfig.getErrorState().getDetails()).contains("eds_config");
    assertThat(badConfig.getErrorState().getLastUpdateAttempt().getSeconds()).isPositive();

    GenericXdsConfig goneConfig = resource(config, CLUSTER_TYPE_URL, "gone");
    assertThat(goneConfig.getClientStatus()).isEqualTo(ClientResourceStatus.DOES_NOT_EXIST);
    assertThat(goneConfig.hasXdsConfig()).isFalse();

    GenericXdsConfig pending = resource(config, ENDPOINTS_TYPE_URL, "pending");
    assertThat(pending.getClientStatus()).isEqualTo(ClientResourceStatus.REQUESTED);
    assertThat(pending.getVersionInfo()).isEmpty();
    assertThat(pending.hasLastUpdated()).isFalse();
  }

  @Test
  void excludeResourceContentsLeavesTheBytesOut() {
    ads.server().setClusters(XdsResources.cluster("good").build());
    client = newClient("csds-exclude");
    client.watchCluster("good", noop(), Runnable::run);
    Poll.until("acked", () -> client.status().resource(CLUSTER_TYPE_URL, "good")
        .map(r -> r.state() == ResourceState.ACKED).orElse(false));

    ClientConfig config = ours(fetch(ClientStatusRequest.newBuilder().setExcludeResourceContents(true).build()),
        "csds-exclude");

    GenericXdsConfig good = resource(config, CLUSTER_TYPE_URL, "good");
    assertThat(good.getClientStatus()).isEqualTo(ClientResourceStatus.ACKED);
    assertThat(good.hasXdsConfig()).isFalse();
  }

  @Test
  void streamAnswersEachRequestWithTheStateAtThatMoment() throws Exception {
    client = newClient("csds-stream");
    LinkedBlockingQueue<Object> received = new LinkedBlockingQueue<>();
    StreamObserver<ClientStatusRequest> requests = ClientStatusDiscoveryServiceGrpc.newStub(csdsChannel)
        .streamClientStatus(new StreamObserver<>() {
          @Override
          public void onNext(ClientStatusResponse value) {
            received.add(value);
          }

          @Override
          public void onError(Throwable t) {
            received.add(t);
          }

          @Override
          public void onCompleted() {
            received.add("completed");
          }
        });
    requests.onNext(ClientStatusRequest.getDefaultInstance());
    ClientConfig before = ours((ClientStatusResponse) received.poll(5, TimeUnit.SECONDS), "csds-stream");
    assertThat(before.getGenericXdsConfigsList()).isEmpty();

    ads.server().setClusters(XdsResources.cluster("good").build());
    client.watchCluster("good", noop(), Runnable::run);
    Poll.until("acked", () -> client.status().resource(CLUSTER_TYPE_URL, "good")
        .map(r -> r.state() == ResourceState.ACKED).orElse(false));
    requests.onNext(ClientStatusRequest.getDefaultInstance());
    ClientConfig after = ours((ClientStatusResponse) received.poll(5, TimeUnit.SECONDS), "csds-stream");
    assertThat(resource(after, CLUSTER_TYPE_URL, "good").getClientStatus()).isEqualTo(ClientResourceStatus.ACKED);
    requests.onCompleted();
    assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("completed");
  }

  @Test
  void closedClientIsNoLongerReported() {
    client = newClient("csds-closed");
    assertThat(find(fetch(ClientStatusRequest.getDefaultInstance()), "csds-closed")).isPresent();
    client.close();
    assertThat(find(fetch(ClientStatusRequest.getDefaultInstance()), "csds-closed")).isEmpty();
  }

  @Test
  void nodeMatchersAreRefused() {
    ClientStatusRequest request = ClientStatusRequest.newBuilder().addNodeMatchers(NodeMatcher.getDefaultInstance())
        .build();
    assertThatThrownBy(() -> fetch(request))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining("node_matchers");
  }

  private DefaultXdsClient newClient(String nodeId) {
    return XdsClientBuilder.forTarget(ads.server().serverUri(), InsecureChannelCredentials.create())
        .node(Node.newBuilder().setId(nodeId).build())
        .build();
  }

  private ClientStatusResponse fetch(ClientStatusRequest request) {
    return ClientStatusDiscoveryServiceGrpc.newBlockingStub(csdsChannel)
        .withDeadlineAfter(5, TimeUnit.SECONDS)
        .fetchClientStatus(request);
  }

  /** Other tests of this JVM may hold clients: find ours by node id. */
  private static Optional<ClientConfig> find(ClientStatusResponse response, String nodeId) {
    return response.getConfigList().stream().filter(c -> c.getNode().getId().equals(nodeId)).findFirst();
  }

  static ClientConfig ours(ClientStatusResponse response, String nodeId) {
    assertThat(response).isNotNull();
    return find(response, nodeId).orElseThrow(() -> new AssertionError("no client " + nodeId + " in " + response));
  }

  static GenericXdsConfig resource(ClientConfig config, String typeUrl, String name) {
    return config.getGenericXdsConfigsList().stream()
        .filter(g -> g.getTypeUrl().equals(typeUrl) && g.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in " + config));
  }

  static <T> ResourceWatcher<T> noop() {
    return new ResourceWatcher<>() {
      @Override
      public void onUpdate(T value) {}

      @Override
      public void onResourceDoesNotExist(String name) {}

      @Override
      public void onError(Status error) {}
    };
  }
}
