package io.jxds.testing;

import static io.jxds.testing.AdsTestClient.names;
import static io.jxds.testing.FakeAdsServer.CLUSTER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ENDPOINTS_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.LISTENER_TYPE_URL;
import static io.jxds.testing.FakeAdsServer.ROUTE_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.StringValue;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.jxds.testing.RecordedRequest.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** FakeAdsServer driven by a raw ADS stub client: the protocol behaviour of a SotW server. */
class FakeAdsServerTest {
  private static final Duration QUIET = Duration.ofMillis(200);
  private static final Duration TIMEOUT = AdsTestClient.TIMEOUT;

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.inProcess();

  private final List<AdsTestClient> clients = new ArrayList<>();

  @AfterEach
  void closeClients() throws InterruptedException {
    for (AdsTestClient client : clients) {
      client.close();
    }
  }

  private AdsTestClient connect() {
    AdsTestClient client = new AdsTestClient(ads.server());
    clients.add(client);
    return client;
  }

  // ------------------------------------------------------------ initial request

  @Test
  void initialClusterRequestGetsFullSetAtCurrentVersion() throws Exception {
    ads.server().setClusters(cluster("a"), cluster("b"));
    AdsTestClient client = connect();

    client.request(CLUSTER_TYPE_URL, "", "", "a");

    DiscoveryResponse response = client.awaitResponse();
    assertThat(response.getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(response.getVersionInfo()).isEqualTo("1");
    assertThat(response.getNonce()).isNotEmpty();
    assertThat(names(response)).containsExactly("a", "b");
    RecordedRequest initial = ads.server().requests().await(CLUSTER_TYPE_URL, r -> true, TIMEOUT);
    assertThat(initial.kind()).isEqualTo(Kind.INITIAL);
    assertThat(initial.resourceNames()).containsExactly("a");
    assertThat(initial.raw().getNode().getId()).isEqualTo("raw-test-client");
    assertThat(ads.server().streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly("a");
  }

  @Test
  void typeNeverSetIsNotAnsweredUntilSet() throws Exception {
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == Kind.INITIAL, TIMEOUT);
    client.assertNoResponse(QUIET);

    ads.server().setClusters(cluster("a"));

    DiscoveryResponse response = client.awaitResponse();
    assertThat(response.getVersionInfo()).isEqualTo("1");
    assertThat(names(response)).containsExactly("a");
  }

  @Test
  void newStreamGetsDataEvenWhenItsVersionIsCurrent() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient first = connect();
    first.request(CLUSTER_TYPE_URL, "", "", "a");
    first.ack(first.awaitResponse(), "a");
    ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", TIMEOUT);

    // A reconnecting client sends its last ACKed version and an empty nonce (grpc-java #7427).
    AdsTestClient second = connect();
    second.request(CLUSTER_TYPE_URL, "1", "", "a");

    DiscoveryResponse again = second.awaitResponse();
    assertThat(again.getVersionInfo()).isEqualTo("1");
    assertThat(names(again)).containsExactly("a");
  }

  @Test
  void emptyFirstClusterRequestIsAWildcard() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "");
    client.ack(client.awaitResponse());

    ads.server().setClusters(cluster("a"), cluster("b"));

    assertThat(names(client.awaitResponse())).containsExactly("a", "b");
  }

  // ------------------------------------------------------------ pushes

  @Test
  void changeIsPushedWithFullClusterSetAndNewVersion() throws Exception {
    ads.server().setClusters(cluster("a"), cluster("b"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse v1 = client.awaitResponse();
    client.ack(v1, "a");

    ads.server().removeClusters("b");
    DiscoveryResponse v2 = client.awaitResponse();
    ads.server().setClusters(cluster("c"));
    DiscoveryResponse v3 = client.awaitResponse();

    assertThat(v2.getVersionInfo()).isEqualTo("2");
    assertThat(names(v2)).containsExactly("a");
    assertThat(v3.getVersionInfo()).isEqualTo("3");
    // SotW: "a" is absent from the full set, which tells the client it was deleted.
    assertThat(names(v3)).containsExactly("c");
    assertThat(v3.getNonce()).isNotEqualTo(v2.getNonce()).isNotEqualTo(v1.getNonce());
  }

  @Test
  void endpointsCarryOnlySubscribedNamesThatExist() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001), endpoints("b", 1002), endpoints("c", 1003));
    AdsTestClient client = connect();

    client.request(ENDPOINTS_TYPE_URL, "", "", "a", "missing");
    DiscoveryResponse v1 = client.awaitResponse();
    assertThat(names(v1)).containsExactly("a");
    client.ack(v1, "a", "missing");

    // A change elsewhere in the type still pushes the new version, with this stream's names.
    ads.server().putEndpoints(endpoints("b", 2002));
    DiscoveryResponse v2 = client.awaitResponse();
    assertThat(v2.getVersionInfo()).isEqualTo("2");
    assertThat(names(v2)).containsExactly("a");
  }

  @Test
  void endpointsSubscriptionWithNothingToSendGetsNoResponse() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001));
    AdsTestClient client = connect();

    client.request(ENDPOINTS_TYPE_URL, "", "", "missing");

    ads.server().requests().await(ENDPOINTS_TYPE_URL, r -> r.kind() == Kind.INITIAL, TIMEOUT);
    client.assertNoResponse(QUIET);
    ads.server().putEndpoints(endpoints("missing", 1002));
    assertThat(names(client.awaitResponse())).containsExactly("missing");
  }

  @Test
  void addingANameGetsCurrentVersionAtOnce() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001), endpoints("b", 1002));
    AdsTestClient client = connect();
    client.request(ENDPOINTS_TYPE_URL, "", "", "a");
    DiscoveryResponse v1 = client.awaitResponse();
    client.ack(v1, "a");
    ads.server().requests().awaitAck(ENDPOINTS_TYPE_URL, "1", TIMEOUT);

    // Client-initiated: last ACKed version and the last nonce seen on this stream.
    client.request(ENDPOINTS_TYPE_URL, "1", v1.getNonce(), "a", "b");

    DiscoveryResponse response = client.awaitResponse();
    assertThat(response.getVersionInfo()).isEqualTo("1");
    assertThat(names(response)).containsExactly("a", "b");
    assertThat(ads.server().requests().ofType(ENDPOINTS_TYPE_URL))
        .extracting(RecordedRequest::kind)
        .containsExactly(Kind.INITIAL, Kind.ACK, Kind.SUBSCRIPTION_CHANGE);
    assertThat(ads.server().streams().subscribedNames(ENDPOINTS_TYPE_URL)).containsExactly("a", "b");
  }

  @Test
  void unsubscribedStreamGetsNoPushes() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001));
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(ENDPOINTS_TYPE_URL, "", "", "a");
    DiscoveryResponse eds = client.awaitResponse();
    client.ack(eds, "a");
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse cds = client.awaitResponse();
    client.ack(cds, "a");

    client.request(ENDPOINTS_TYPE_URL, "1", eds.getNonce());
    client.request(CLUSTER_TYPE_URL, "1", cds.getNonce());
    ads.server()
        .requests().await(
            CLUSTER_TYPE_URL,
            r -> r.kind() == Kind.SUBSCRIPTION_CHANGE && r.resourceNames().isEmpty(),
            TIMEOUT);
    assertThat(ads.server().streams().subscribedNames(ENDPOINTS_TYPE_URL)).isEmpty();
    assertThat(ads.server().streams().subscribedNames(CLUSTER_TYPE_URL)).isEmpty();

    ads.server().setEndpoints(endpoints("a", 2002));
    ads.server().setClusters(cluster("a"), cluster("b"));

    client.assertNoResponse(QUIET);
  }

  @Test
  void pushesGoToEveryStreamSubscribedToTheType() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001), endpoints("b", 1002));
    AdsTestClient one = connect();
    AdsTestClient two = connect();
    AdsTestClient other = connect();
    one.request(ENDPOINTS_TYPE_URL, "", "", "a");
    two.request(ENDPOINTS_TYPE_URL, "", "", "b");
    other.request(ROUTE_TYPE_URL, "", "", "r");
    one.ack(one.awaitResponse(), "a");
    two.ack(two.awaitResponse(), "b");
    ads.server().streams().awaitCount(3, TIMEOUT);

    ads.server().setEndpoints(endpoints("a", 2001), endpoints("b", 2002));

    assertThat(names(one.awaitResponse())).containsExactly("a");
    assertThat(names(two.awaitResponse())).containsExactly("b");
    other.assertNoResponse(QUIET);
    assertThat(ads.server().streams().subscribedNames(ENDPOINTS_TYPE_URL)).containsExactly("a", "b");
  }

  // ------------------------------------------------------------ ACK / NACK / stale

  @Test
  void ackIsRecordedWithItsVersion() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse response = client.awaitResponse();

    client.ack(response, "a");

    RecordedRequest ack = ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", TIMEOUT);
    assertThat(ack.responseNonce()).isEqualTo(response.getNonce());
    assertThat(ads.server().requests().lastAck(CLUSTER_TYPE_URL)).contains(ack);
    assertThat(ads.server().requests().lastNack(CLUSTER_TYPE_URL)).isEmpty();
    client.assertNoResponse(QUIET); // an ACK is not answered
  }

  @Test
  void nackIsRecordedWithErrorAndNotAnswered() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    client.ack(client.awaitResponse(), "a");
    // Wait for the ACK to be read: pushed after v2, it would be (rightly) stale.
    ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "1", TIMEOUT);
    ads.server().setClusters(cluster("a"), cluster("b"));
    DiscoveryResponse v2 = client.awaitResponse();

    client.nack(v2, "1", "cluster b: bad lb_policy", "a");

    RecordedRequest nack = ads.server().requests().awaitNack(CLUSTER_TYPE_URL, TIMEOUT);
    assertThat(nack.versionInfo()).isEqualTo("1");
    assertThat(nack.errorMessage()).isEqualTo("cluster b: bad lb_policy");
    assertThat(nack.errorCode()).isEqualTo(3);
    assertThat(ads.server().requests().lastNack(CLUSTER_TYPE_URL)).contains(nack);
    assertThat(ads.server().requests().lastAck(CLUSTER_TYPE_URL).orElseThrow().versionInfo())
        .isEqualTo("1");
    client.assertNoResponse(QUIET); // the rejected version is not re-sent

    ads.server().setClusters(cluster("a"));
    assertThat(client.awaitResponse().getVersionInfo()).isEqualTo("3");
  }

  @Test
  void staleNonceIsRecordedAndIgnoredIncludingNames() throws Exception {
    ads.server().setEndpoints(endpoints("a", 1001), endpoints("b", 1002));
    AdsTestClient client = connect();
    client.request(ENDPOINTS_TYPE_URL, "", "", "a");
    DiscoveryResponse v1 = client.awaitResponse();
    ads.server().putEndpoints(endpoints("a", 2001));
    DiscoveryResponse v2 = client.awaitResponse();

    // Answers v1 after v2 was sent: stale, so neither the ACK nor the new name counts.
    client.ack(v1, "a", "b");

    RecordedRequest stale =
        ads.server().requests().await(ENDPOINTS_TYPE_URL, r -> r.kind() == Kind.STALE, TIMEOUT);
    assertThat(stale.responseNonce()).isEqualTo(v1.getNonce());
    assertThat(ads.server().streams().subscribedNames(ENDPOINTS_TYPE_URL)).containsExactly("a");
    assertThat(ads.server().requests().lastAck(ENDPOINTS_TYPE_URL)).isEmpty();
    client.assertNoResponse(QUIET);

    client.ack(v2, "a");
    assertThat(ads.server().requests().awaitAck(ENDPOINTS_TYPE_URL, "2", TIMEOUT).kind()).isEqualTo(Kind.ACK);
  }

  @Test
  void nonceFromAnotherStreamIsStale() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient first = connect();
    first.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse response = first.awaitResponse();

    AdsTestClient second = connect();
    second.request(CLUSTER_TYPE_URL, "1", response.getNonce(), "a");

    RecordedRequest stale =
        ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == Kind.STALE, TIMEOUT);
    assertThat(stale.streamId()).isNotEqualTo(ads.server().requests().all().get(0).streamId());
    second.assertNoResponse(QUIET);
  }

  @Test
  void staleNackIsNotANack() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse v1 = client.awaitResponse();
    ads.server().setClusters(cluster("a"), cluster("b"));
    client.awaitResponse();

    client.nack(v1, "", "too late");

    ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == Kind.STALE, TIMEOUT);
    assertThat(ads.server().requests().lastNack(CLUSTER_TYPE_URL)).isEmpty();
    assertThat(ads.server().streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly("a");
  }

  @Test
  void listenersAreFullSetAndRoutesSubscribedOnly() throws Exception {
    ads.server().setListeners(
        XdsResources.listener("l1").rdsRouteConfig("r1").build(),
        XdsResources.listener("l2").rdsRouteConfig("r2").build());
    ads.server().setRoutes(
        XdsResources.route("r1").virtualHost("vh", List.of("*"), "c1").build(),
        XdsResources.route("r2").virtualHost("vh", List.of("*"), "c2").build());
    AdsTestClient client = connect();

    client.request(LISTENER_TYPE_URL, "", "", "l1");
    assertThat(names(client.awaitResponse())).containsExactly("l1", "l2");
    client.request(ROUTE_TYPE_URL, "", "", "r1");
    assertThat(names(client.awaitResponse())).containsExactly("r1");
  }

  @Test
  void clearRequestsForgetsHistoryButNotSubscriptions() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse v1 = client.awaitResponse();
    client.nack(v1, "", "bad", "a");
    ads.server().requests().awaitNack(CLUSTER_TYPE_URL, TIMEOUT);

    ads.server().requests().clear();

    assertThat(ads.server().requests().all()).isEmpty();
    assertThat(ads.server().requests().lastNack(CLUSTER_TYPE_URL)).isEmpty();
    assertThat(ads.server().streams().subscribedNames(CLUSTER_TYPE_URL)).containsExactly("a");
    ads.server().setClusters(cluster("a"));
    client.ack(client.awaitResponse(), "a");
    assertThat(ads.server().requests().awaitAck(CLUSTER_TYPE_URL, "2", TIMEOUT).kind()).isEqualTo(Kind.ACK);
  }

  @Test
  void repeatedRequestIsADuplicate() throws Exception {
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    DiscoveryResponse response = client.awaitResponse();
    client.ack(response, "a");
    client.ack(response, "a");

    ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == Kind.DUPLICATE, TIMEOUT);
    assertThat(ads.server().requests().ofType(CLUSTER_TYPE_URL))
        .extracting(RecordedRequest::kind)
        .containsExactly(Kind.INITIAL, Kind.ACK, Kind.DUPLICATE);
    client.assertNoResponse(QUIET);
  }

  @Test
  void unknownTypeIsRecordedAndNeverAnswered() throws Exception {
    String typeUrl = "type.googleapis.com/google.protobuf.StringValue";
    AdsTestClient client = connect();

    client.request(typeUrl, "", "", "x");

    RecordedRequest unknown = ads.server().requests().await(typeUrl, r -> true, TIMEOUT);
    assertThat(unknown.kind()).isEqualTo(Kind.UNKNOWN_TYPE);
    client.assertNoResponse(QUIET);
    assertThat(ads.server().streams().subscribedNames(typeUrl)).isEmpty();
  }

  @Test
  void anyTypeBecomesServedOnceSet() throws Exception {
    String typeUrl = "type.googleapis.com/google.protobuf.StringValue";
    ads.server().setResources(typeUrl, Map.of("x", StringValue.of("hello")));
    AdsTestClient client = connect();

    client.request(typeUrl, "", "", "x");

    DiscoveryResponse response = client.awaitResponse();
    assertThat(response.getResources(0).unpack(StringValue.class).getValue()).isEqualTo("hello");
  }

  @Test
  void mismatchedMessageIsRejectedUnlessPassedAsAny() {
    assertThatThrownBy(() -> ads.server().setResources(CLUSTER_TYPE_URL, Map.of("a", endpoints("a", 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ClusterLoadAssignment");

    ads.server().setResources(CLUSTER_TYPE_URL, Map.of("a", Any.pack(endpoints("a", 1))));
    assertThat(ads.server().version(CLUSTER_TYPE_URL)).isEqualTo("1");
  }

  @Test
  void versionsAreCountedPerType() {
    ads.server().setClusters(cluster("a"));
    ads.server().setClusters(cluster("a"));
    ads.server().setRoutes(RouteConfiguration.newBuilder().setName("r").build());

    assertThat(ads.server().version(CLUSTER_TYPE_URL)).isEqualTo("2");
    assertThat(ads.server().version(ROUTE_TYPE_URL)).isEqualTo("1");
    assertThat(ads.server().version(LISTENER_TYPE_URL)).isEmpty();
  }

  // ------------------------------------------------------------ faults

  @Test
  void breakStreamsClosesEveryStreamWithTheStatus() throws Exception {
    AdsTestClient one = connect();
    AdsTestClient two = connect();
    one.request(CLUSTER_TYPE_URL, "", "", "a");
    two.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().streams().awaitCount(2, TIMEOUT);

    ads.server().faults().breakStreams(Status.UNAVAILABLE.withDescription("going away"));

    assertThat(one.awaitClosed().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(two.awaitClosed().getDescription()).isEqualTo("going away");
    assertThat(ads.server().streams().count()).isZero();
    assertThat(ads.server().streams().subscribedNames(CLUSTER_TYPE_URL)).isEmpty();
    // The server still serves: a new stream works.
    ads.server().setClusters(cluster("a"));
    AdsTestClient three = connect();
    three.request(CLUSTER_TYPE_URL, "", "", "a");
    assertThat(names(three.awaitResponse())).containsExactly("a");
  }

  @Test
  void heldResponsesAreSentInOrderOnRelease() throws Exception {
    ads.server().faults().holdResponses();
    ads.server().setClusters(cluster("a"));
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().requests().await(CLUSTER_TYPE_URL, r -> r.kind() == Kind.INITIAL, TIMEOUT);
    ads.server().setClusters(cluster("b"));
    client.assertNoResponse(QUIET);

    ads.server().faults().releaseResponses();

    assertThat(client.awaitResponse().getVersionInfo()).isEqualTo("1");
    DiscoveryResponse latest = client.awaitResponse();
    assertThat(latest.getVersionInfo()).isEqualTo("2");
    assertThat(names(latest)).containsExactly("b");
  }

  @Test
  void responseDelayDelaysResponses() throws Exception {
    ads.server().setClusters(cluster("a"));
    ads.server().faults().delayResponses(Duration.ofMillis(300));
    AdsTestClient client = connect();

    long start = System.nanoTime();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    client.awaitResponse();

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
  }

  @Test
  void rawResponseIsSentUnchangedAndItsAnswerClassified() throws Exception {
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().streams().awaitCount(1, TIMEOUT);
    ads.server().requests().await(CLUSTER_TYPE_URL, r -> true, TIMEOUT);
    DiscoveryResponse hostile =
        DiscoveryResponse.newBuilder()
            .setTypeUrl(CLUSTER_TYPE_URL)
            .setVersionInfo("evil")
            .setNonce("raw-1")
            .addResources(Any.pack(StringValue.of("not a cluster")))
            .build();

    assertThat(ads.server().faults().sendRaw(hostile)).isEqualTo(1);

    DiscoveryResponse received = client.awaitResponse();
    assertThat(received).isEqualTo(hostile);
    client.nack(received, "", "can't decode resource 0", "a");
    assertThat(ads.server().requests().awaitNack(CLUSTER_TYPE_URL, TIMEOUT).responseNonce())
        .isEqualTo("raw-1");
  }

  @Test
  void clientHalfCloseEndsTheStream() throws Exception {
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().streams().awaitCount(1, TIMEOUT);
    client.close();
    ads.server().streams().awaitCount(0, TIMEOUT);
  }

  @Test
  void concurrentUpdatesEndAtTheLastVersion() throws Exception {
    AdsTestClient client = connect();
    client.request(CLUSTER_TYPE_URL, "", "", "a");
    ads.server().requests().await(CLUSTER_TYPE_URL, r -> true, TIMEOUT);
    int threads = 4;
    int perThread = 50;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread writer =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  ads.server().setClusters(cluster("a"));
                }
              });
      writer.start();
      writers.add(writer);
    }
    start.countDown();
    for (Thread writer : writers) {
      writer.join(TIMEOUT.toMillis());
    }

    String last = Integer.toString(threads * perThread);
    assertThat(ads.server().version(CLUSTER_TYPE_URL)).isEqualTo(last);
    DiscoveryResponse response;
    do {
      response = client.awaitResponse();
    } while (!response.getVersionInfo().equals(last));
    client.ack(response, "a");
    ads.server().requests().awaitAck(CLUSTER_TYPE_URL, last, TIMEOUT);
  }

  // ------------------------------------------------------------ proto helpers

  static Cluster cluster(String name) {
    return Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(
            Cluster.EdsClusterConfig.newBuilder()
                .setEdsConfig(
                    ConfigSource.newBuilder()
                        .setAds(AggregatedConfigSource.getDefaultInstance())))
        .build();
  }

  static ClusterLoadAssignment endpoints(String clusterName, int port) {
    return ClusterLoadAssignment.newBuilder()
        .setClusterName(clusterName)
        .addEndpoints(
            LocalityLbEndpoints.newBuilder()
                .addLbEndpoints(
                    LbEndpoint.newBuilder()
                        .setEndpoint(
                            Endpoint.newBuilder()
                                .setAddress(
                                    Address.newBuilder()
                                        .setSocketAddress(
                                            SocketAddress.newBuilder()
                                                .setAddress("127.0.0.1")
                                                .setPortValue(port))))))
        .build();
  }
}
