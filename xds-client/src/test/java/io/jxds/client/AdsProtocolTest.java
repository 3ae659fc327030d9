package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.api.ResourceTypes.ENDPOINTS_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.WatchHandle;
import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.RecordingWatcher.Error;
import io.jxds.client.RecordingWatcher.Update;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's protocol rules against an in-memory transport and a manual clock: exact request
 * contents, ACK/NACK, A46, timers, reconnect and backoff, cache, retention, flow control.
 */
class AdsProtocolTest {
  private static final Executor DIRECT = Runnable::run;
  private static final Node NODE = Node.newBuilder().setId("node-1").setCluster("c1").build();

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private DefaultXdsClient client;

  private DefaultXdsClient newClient(Consumer<XdsClientBuilder> config) {
    XdsClientBuilder builder = transport.clientBuilder(clock, NODE);
    config.accept(builder);
    client = builder.build();
    return client;
  }

  private DefaultXdsClient newClient() {
    return newClient(b -> {});
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
  }

  private static Any cluster(String name) {
    return XdsResources.cluster(name).buildAny();
  }

  private static Any cluster(String name, String edsServiceName) {
    return XdsResources.cluster(name).edsServiceName(edsServiceName).buildAny();
  }

  private static Any invalidCluster(String name) {
    return XdsResources.cluster(name).edsConfigPath("/etc/eds.yaml").buildAny();
  }

  private static Any endpoints(String name, String ip) {
    return XdsResources.endpoints(name)
        .locality("r", "z", "", l -> l.endpoint(ip, 8080, HealthStatus.HEALTHY))
        .buildAny();
  }

  private RecordingWatcher<TestCluster> watchCluster(String name) {
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, name, w, DIRECT);
    return w;
  }

  private RecordingWatcher<TestEndpoints> watchEndpoints(String name) {
    RecordingWatcher<TestEndpoints> w = new RecordingWatcher<>();
    client.watch(TestTypes.ENDPOINTS, name, w, DIRECT);
    return w;
  }

  private ResourceStatus status(String typeUrl, String name) {
    return client.status().resource(typeUrl, name).orElseThrow();
  }

  // ---- subscription wire contents ----

  @Test
  void streamOpensOnFirstWatchAndSubscribesOnceReady() {
    newClient();
    watchCluster("a");
    assertThat(transport.calls).hasSize(1);
    ScriptedCall call = transport.last();
    assertThat(call.requested).isEqualTo(1);
    assertThat(call.sent).isEmpty(); // not before the transport is ready

    call.ready();

    assertThat(call.sent).hasSize(1);
    DiscoveryRequest r = call.lastRequest();
    assertThat(r.getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(r.getResourceNamesList()).containsExactly("a");
    assertThat(r.getVersionInfo()).isEmpty();
    assertThat(r.getResponseNonce()).isEmpty();
    assertThat(r.getNode().getId()).isEqualTo("node-1");
    assertThat(r.getNode().getUserAgentName()).isEqualTo("jxds");
    assertThat(r.hasErrorDetail()).isFalse();
  }

  @Test
  void requestsListEverySubscribedName() {
    newClient();
    ScriptedCall call = null;
    watchCluster("b");
    call = transport.last().ready();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    WatchHandle ha = client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b");
    watchEndpoints("e1");
    assertThat(call.lastRequest().getTypeUrl()).isEqualTo(ENDPOINTS_TYPE_URL);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("e1");

    ha.cancel();
    assertThat(call.lastRequest().getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("b");
  }

  @Test
  void lastUnsubscribeOfATypeSendsNoEmptyList() {
    newClient(b -> b.cacheRetention(Duration.ZERO));
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), DIRECT);
    ScriptedCall call = transport.last().ready();
    int before = call.sent.size();
    h.cancel();
    // An empty resource_names reads as a wildcard to java-control-plane (SubscriptionLifecycleTest).
    assertThat(call.sent).hasSize(before);
    assertThat(client.status().resources()).isEmpty();
  }

  @Test
  void nodeIsOnEveryRequestByDefault() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    watchEndpoints("a");
    assertThat(call.sent).hasSize(3).allSatisfy(r -> assertThat(r.getNode()).isEqualTo(withAgent(NODE)));
  }

  @Test
  void nodeOnlyOnEachStreamsFirstRequestWhenOptedIn() {
    newClient(b -> b.sendNodeOnFirstRequestOnly(true));
    watchCluster("a");
    watchEndpoints("e");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(call.sent).hasSize(3);
    assertThat(call.sent.get(0).hasNode()).isTrue();
    assertThat(call.sent.get(1).hasNode()).isFalse();
    assertThat(call.sent.get(2).hasNode()).isFalse();

    call.close(Status.UNAVAILABLE); // after a response: reconnect after the reset backoff (1 s)
    clock.forwardTime(1, TimeUnit.SECONDS);
    ScriptedCall second = transport.last().ready();
    assertThat(second).isNotSameAs(call);
    assertThat(second.sent.get(0).hasNode()).isTrue();
    assertThat(second.sent.get(1).hasNode()).isFalse();
  }

  private static Node withAgent(Node node) {
    return node.toBuilder()
        .setUserAgentName("jxds")
        .addClientFeatures("envoy.lb.does_not_support_overprovisioning")
        .addClientFeatures("xds.config.resource-in-sotw")
        .build();
  }

  // ---- ACK / NACK ----

  @Test
  void ackEchoesVersionAndNonce() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "v7", "nonce-3", cluster("a")));
    DiscoveryRequest ack = call.lastRequest();
    assertThat(ack.getVersionInfo()).isEqualTo("v7");
    assertThat(ack.getResponseNonce()).isEqualTo("nonce-3");
    assertThat(ack.getResourceNamesList()).containsExactly("a");
    assertThat(ack.hasErrorDetail()).isFalse();
  }

  @Test
  void nackCarriesLastAcceptedVersionTheResponseNonceAndOneLinePerRejectedResource() {
    newClient();
    watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", invalidCluster("a"), invalidCluster("b")));

    DiscoveryRequest nack = call.lastRequest();
    assertThat(nack.getVersionInfo()).isEqualTo("1");
    assertThat(nack.getResponseNonce()).isEqualTo("n2");
    assertThat(nack.getErrorDetail().getCode()).isEqualTo(3); // INVALID_ARGUMENT
    assertThat(nack.getErrorDetail().getMessage().split("\n"))
        .containsExactly(
            "cluster \"a\": eds_cluster_config.eds_config must be ads or self, got path",
            "cluster \"b\": eds_cluster_config.eds_config must be ads or self, got path");
  }

  @Test
  void nackBeforeAnyAcceptedVersionCarriesEmptyVersion() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", invalidCluster("a")));
    assertThat(call.lastRequest().getVersionInfo()).isEmpty();
    assertThat(call.lastRequest().getResponseNonce()).isEqualTo("n1");
    assertThat(call.lastRequest().hasErrorDetail()).isTrue();
  }

  @Test
  void partialNackStillAppliesTheValidResources() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestCluster> b = watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a", "a-eds"), invalidCluster("b")));

    assertThat(call.lastRequest().hasErrorDetail()).isTrue();
    assertThat(a.updates()).containsExactly(new TestCluster("a", "a-eds"));
    assertThat(b.errors()).hasSize(1);
    Status error = b.errors().get(0);
    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription())
        .contains("INVALID_ARGUMENT")
        .contains("eds_config must be ads or self")
        .contains("\"b\"")
        .contains("node-1");
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.ACKED);
    assertThat(status(CLUSTER_TYPE_URL, "a").version()).isEqualTo("1");
    assertThat(status(CLUSTER_TYPE_URL, "b").state()).isEqualTo(ResourceState.NACKED);
    assertThat(status(CLUSTER_TYPE_URL, "b").lastError()).hasValueSatisfying(e -> assertThat(e).contains("eds_config"));
  }

  @Test
  void nackKeepsLastGoodValueAndTellsWatchersToKeepUsingIt() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a", "x")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", invalidCluster("a")));
    assertThat(a.events()).hasSize(2);
    assertThat(a.last()).isInstanceOf(Error.class);
    ResourceStatus s = status(CLUSTER_TYPE_URL, "a");
    assertThat(s.state()).isEqualTo(ResourceState.NACKED);
    assertThat(s.version()).isEqualTo("1");

    // A late watcher gets the good value, not the error.
    RecordingWatcher<TestCluster> late = watchCluster("a");
    assertThat(late.events()).containsExactly(new Update<>(new TestCluster("a", "x")));
  }

  @Test
  void unwatchedResourcesAreIgnoredWithoutValidation() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), invalidCluster("nobody-watches")));
    assertThat(call.lastRequest().hasErrorDetail()).isFalse();
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("1");
    assertThat(a.updates()).hasSize(1);
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "nobody-watches")).isEmpty();
  }

  @Test
  void undecodableAnyIsNackedWithItsIndex() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    Any garbage = Any.newBuilder().setTypeUrl(CLUSTER_TYPE_URL).setValue(com.google.protobuf.ByteString
        .copyFromUtf8("\u00ff\u00ff")).build();
    Any wrongType = endpoints("a", "10.0.0.1");
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), garbage, wrongType));
    String detail = call.lastRequest().getErrorDetail().getMessage();
    assertThat(detail.split("\n")).hasSize(2);
    assertThat(detail).contains("index 1").contains("index 2");
    assertThat(a.updates()).hasSize(1); // the decodable one still applies
  }

  @Test
  void unchangedValueDoesNotNotifyButVersionAdvances() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a")));
    assertThat(a.events()).hasSize(1);
    assertThat(status(CLUSTER_TYPE_URL, "a").version()).isEqualTo("2");
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("2");

    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a", "changed")));
    assertThat(a.updates()).hasSize(2).last().isEqualTo(new TestCluster("a", "changed"));
  }

  @Test
  void responseOfAnUnsubscribedTypeIsNotAckedButFlowContinues() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    int sent = call.sent.size();
    call.respond(response(ENDPOINTS_TYPE_URL, "1", "n1", endpoints("x", "10.0.0.1")));
    assertThat(call.sent).hasSize(sent);
    assertThat(call.requested).isEqualTo(2);
  }

  // ---- state of the world ----

  @Test
  void clusterMissingFromAResponseWasDeleted() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestCluster> b = watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(b.events()).hasSize(1);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.DOES_NOT_EXIST);

    RecordingWatcher<TestCluster> late = watchCluster("a");
    assertThat(late.events()).containsExactly(new DoesNotExist("a"));

    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a"), cluster("b")));
    assertThat(a.last()).isInstanceOf(Update.class);
  }

  @Test
  void firstResponseOnANewStreamDeletesNothingTheNextOneDoes() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.close(Status.UNAVAILABLE.withDescription("control plane restarting"));
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    ScriptedCall second = transport.last().ready();
    // A restarted control plane answering before it has its whole state must not wipe "a".
    second.respond(response(CLUSTER_TYPE_URL, "1", "n2", cluster("b")));
    assertThat(a.events()).hasSize(1);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.ACKED);
    second.respond(response(CLUSTER_TYPE_URL, "2", "n3", cluster("b")));
    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
  }

  @Test
  void deletionPostponedByAFirstResponseIsConcludedAfterTheResourceTimeoutWhenNoResponseFollows() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.close(Status.UNAVAILABLE.withDescription("control plane restarting"));
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    ScriptedCall second = transport.last().ready();
    second.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    assertThat(second.lastRequest().getVersionInfo()).isEqualTo("2"); // ACKed
    clock.forwardTime(14_999, TimeUnit.MILLISECONDS);
    assertThat(a.events()).hasSize(1);
    clock.forwardTime(1, TimeUnit.MILLISECONDS);
    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
  }

  @Test
  void postponedDeletionIsClearedByAResponseCarryingTheName() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.close(Status.UNAVAILABLE.withDescription("control plane restarting"));
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    ScriptedCall second = transport.last().ready();
    second.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    second.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a"), cluster("b")));
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void postponedDeletionAfterTheTimeoutKeepsTheClusterWithIgnoreResourceDeletion() {
    newClient(b -> b.ignoreResourceDeletion(true));
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.close(Status.UNAVAILABLE.withDescription("control plane restarting"));
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    ScriptedCall second = transport.last().ready();
    second.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void responseWithAnUnreadableResourceDeletesNothing() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    Any garbage = Any.newBuilder().setTypeUrl(CLUSTER_TYPE_URL).setValue(com.google.protobuf.ByteString
        .copyFromUtf8("\u00ff")).build();
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", garbage));
    assertThat(call.lastRequest().hasErrorDetail()).isTrue();
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
  }

  @Test
  void ignoreResourceDeletionKeepsTheCluster() {
    newClient(b -> b.ignoreResourceDeletion(true));
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    watchCluster("b");
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("b")));
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.ACKED);
    RecordingWatcher<TestCluster> late = watchCluster("a");
    assertThat(late.events()).hasSize(1).first().isInstanceOf(Update.class);
  }

  @Test
  void endpointsMissingFromAResponseAreUnchanged() {
    newClient();
    RecordingWatcher<TestEndpoints> e1 = watchEndpoints("e1");
    watchEndpoints("e2");
    ScriptedCall call = transport.last().ready();
    call.respond(response(ENDPOINTS_TYPE_URL, "1", "n1", endpoints("e1", "10.0.0.1"), endpoints("e2", "10.0.0.2")));
    call.respond(response(ENDPOINTS_TYPE_URL, "2", "n2", endpoints("e2", "10.0.0.3")));
    assertThat(e1.events()).hasSize(1);
    assertThat(status(ENDPOINTS_TYPE_URL, "e1").state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void justSubscribedNameMissingFromAResponseIsNotConcludedDeleted() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    RecordingWatcher<TestCluster> b = watchCluster("b"); // timer pending for b
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(b.events()).isEmpty();
    assertThat(status(CLUSTER_TYPE_URL, "b").state()).isEqualTo(ResourceState.REQUESTED);
  }

  /**
   * A name with nothing cached that is missing from the response to the request naming it does
   * not exist now (a mistyped cluster fails at once): waiting out the resource timeout protects
   * only values the client already had.
   */
  @Test
  void uncachedNameMissingFromTheResponseToItsRequestDoesNotExistAtOnce() {
    newClient();
    RecordingWatcher<TestCluster> typo = watchCluster("paymnets");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("payments")));

    assertThat(typo.events()).containsExactly(new DoesNotExist("paymnets"));
    assertThat(status(CLUSTER_TYPE_URL, "paymnets").state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
    assertThat(status(CLUSTER_TYPE_URL, "paymnets").lastError()).hasValueSatisfying(
        why -> assertThat(why).contains("version \"1\"").doesNotContain("within"));
  }

  @Test
  void uncachedNameAddedLaterIsAnsweredByTheResponseThatKeepsTheVersion() {
    newClient();
    watchCluster("payments");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("payments")));
    RecordingWatcher<TestCluster> typo = watchCluster("paymnets");
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("payments", "paymnets");

    // Nothing changed at the server: a response at the same version answers the request.
    call.respond(response(CLUSTER_TYPE_URL, "1", "n2", cluster("payments")));

    assertThat(typo.events()).containsExactly(new DoesNotExist("paymnets"));
  }

  @Test
  void newVersionPushedBeforeTheServerSawTheRequestDoesNotAnswerIt() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    RecordingWatcher<TestCluster> b = watchCluster("b");

    // Version 2 may have left the server before the request naming "b" arrived (a server drops
    // a request carrying a stale nonce): its absence proves nothing yet.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a")));
    assertThat(b.events()).isEmpty();
    assertThat(status(CLUSTER_TYPE_URL, "b").state()).isEqualTo(ResourceState.REQUESTED);

    // Its ACK names "b"; the answer to it, at the same version, lacks it.
    assertThat(call.lastRequest().getResourceNamesList()).contains("b");
    call.respond(response(CLUSTER_TYPE_URL, "2", "n3", cluster("a")));
    assertThat(b.events()).containsExactly(new DoesNotExist("b"));
  }

  // ---- does-not-exist timer ----

  @Test
  void doesNotExistTimerStartsOnlyOnceTheStreamIsReady() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).isEmpty();

    transport.last().ready();
    clock.forwardTime(14_999, TimeUnit.MILLISECONDS);
    assertThat(a.events()).isEmpty();
    clock.forwardTime(1, TimeUnit.MILLISECONDS);
    assertThat(a.events()).containsExactly(new DoesNotExist("a"));
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).as("the timer fired: gRFC A40's TIMEOUT, not a deletion")
        .isEqualTo(ResourceState.TIMEOUT);
  }

  @Test
  void resourceTimeoutIsConfigurable() {
    newClient(b -> b.resourceTimeout(Duration.ofSeconds(2)));
    RecordingWatcher<TestCluster> a = watchCluster("a");
    transport.last().ready();
    clock.forwardTime(2, TimeUnit.SECONDS);
    assertThat(a.events()).containsExactly(new DoesNotExist("a"));
  }

  @Test
  void dataStopsTheTimer() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
  }

  @Test
  void errorStopsTheTimer() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", invalidCluster("a")));
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Error.class);
  }

  @Test
  void subscribingAnotherNameDoesNotRearmTheTimerOfANackedName() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", invalidCluster("a")));
    watchCluster("b"); // a new request for the type goes out on the ready stream
    RecordingWatcher<TestCluster> second = watchCluster("a");
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Error.class);
    assertThat(second.events()).hasSize(1).first().isInstanceOf(Error.class);
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.NACKED);
  }

  @Test
  void cancelStopsTheTimer() {
    newClient();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    transport.last().ready();
    h.cancel();
    assertThat(clock.numPendingTasksWithin(15, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void streamCloseStopsTimersAndReconnectRearmsOnlyNamesWithoutAResult() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    RecordingWatcher<TestCluster> b = watchCluster("b"); // after the stream's first request
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"))); // not an answer for b: its timer runs
    clock.forwardTime(10, TimeUnit.SECONDS);
    call.close(Status.UNAVAILABLE.withDescription("recycled"));

    ScriptedCall second = transport.last();
    assertThat(second).isNotSameAs(call);
    clock.forwardTime(30, TimeUnit.SECONDS); // not ready: no timer runs
    assertThat(b.events()).isEmpty();

    second.ready();
    clock.forwardTime(15, TimeUnit.SECONDS);
    assertThat(b.events()).containsExactly(new DoesNotExist("b"));
    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
  }

  // ---- reconnect and backoff ----

  @Test
  void streamClosedAfterAResponseReconnectsAtOnceSilentlyAndResubscribesWithVersions() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestEndpoints> e = watchEndpoints("e");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "c5", "n1", cluster("a")));
    call.respond(response(ENDPOINTS_TYPE_URL, "e9", "n2", endpoints("e", "10.0.0.1")));
    clock.forwardTime(2, TimeUnit.SECONDS); // it lived longer than the backoff's first delay
    call.close(Status.UNAVAILABLE.withDescription("max connection age"));

    assertThat(transport.calls).hasSize(2);
    ScriptedCall second = transport.last().ready();
    assertThat(second.sent).hasSize(2);
    DiscoveryRequest cds = second.sent.get(0);
    DiscoveryRequest eds = second.sent.get(1);
    assertThat(cds.getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(cds.getVersionInfo()).isEqualTo("c5");
    assertThat(cds.getResponseNonce()).isEmpty();
    assertThat(cds.getResourceNamesList()).containsExactly("a");
    assertThat(eds.getVersionInfo()).isEqualTo("e9");
    assertThat(eds.getResponseNonce()).isEmpty();
    assertThat(a.events()).hasSize(1);
    assertThat(e.events()).hasSize(1);
    assertThat(client.status().connected()).isTrue();
  }

  @Test
  void streamFailingBeforeAnyResponseBacksOffExponentiallyUpTo120Seconds() {
    newClient();
    watchCluster("a");
    List<Long> delaysMillis = new ArrayList<>();
    for (int attempt = 0; attempt < 14; attempt++) {
      ScriptedCall call = transport.last();
      int calls = transport.calls.size();
      call.close(Status.UNAVAILABLE.withDescription("connection refused"));
      long delay = clock.nanosUntilNextTask();
      delaysMillis.add(TimeUnit.NANOSECONDS.toMillis(delay));
      clock.forwardNanos(delay - 1);
      assertThat(transport.calls).hasSize(calls);
      clock.forwardNanos(1);
      assertThat(transport.calls).hasSize(calls + 1);
    }
    assertThat(delaysMillis)
        .startsWith(1000L, 1600L, 2560L, 4096L, 6553L, 10485L, 16777L, 26843L, 42949L, 68719L, 109951L, 120000L)
        .endsWith(120000L);
  }

  @Test
  void backoffJitterStaysWithinTwentyPercent() {
    for (double fraction : new double[] {0.0, 0.999}) {
      var backoff = new io.jxds.client.internal.stream.ExponentialBackoff(TestRandom.fixed(fraction));
      long first = backoff.nextDelayNanos();
      assertThat(first).isBetween(TimeUnit.MILLISECONDS.toNanos(800), TimeUnit.MILLISECONDS.toNanos(1200));
      assertThat(first).isNotEqualTo(TimeUnit.SECONDS.toNanos(1));
    }
  }

  @Test
  void backoffIsResetByAStreamThatGotAResponse() {
    newClient();
    watchCluster("a");
    transport.last().close(Status.UNAVAILABLE);
    clock.forwardTime(1000, TimeUnit.MILLISECONDS);
    transport.last().close(Status.UNAVAILABLE);
    clock.forwardTime(1600, TimeUnit.MILLISECONDS);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    clock.forwardTime(5, TimeUnit.SECONDS);
    call.close(Status.UNAVAILABLE); // lived longer than 1 s: reconnect at once, sequence reset
    assertThat(transport.last()).isNotSameAs(call);
    // Fails before a response: the reset sequence's second delay (its first went to the
    // reconnect), not the 2.56 s the two failures before had reached.
    transport.last().close(Status.UNAVAILABLE);
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1600));
  }

  @Test
  void failureBeforeAnyResponseTellsWatchersWithoutDataOnly() {
    newClient();
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.close(Status.UNAVAILABLE);
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    RecordingWatcher<TestCluster> b = watchCluster("b");
    transport.last().close(Status.UNAVAILABLE.withDescription("connection refused"));

    assertThat(a.events()).hasSize(1).first().isInstanceOf(Update.class);
    assertThat(b.errors()).hasSize(1);
    Status error = b.errors().get(0);
    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription()).contains("connection refused").contains("\"b\"").contains("node-1");
    assertThat(client.status().connected()).isFalse();
    // A new watcher of b hears the known error at once.
    RecordingWatcher<TestCluster> b2 = watchCluster("b");
    assertThat(b2.errors()).hasSize(1);
  }

  // ---- cache, late watchers, retention ----

  @Test
  void lateWatcherGetsTheCachedValueAtOnceOnItsExecutor() {
    newClient();
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a", "x")));
    int sent = call.sent.size();

    List<Runnable> queued = new ArrayList<>();
    RecordingWatcher<TestCluster> late = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", late, queued::add);
    assertThat(late.events()).isEmpty();
    assertThat(queued).hasSize(1);
    queued.get(0).run();
    assertThat(late.events()).containsExactly(new Update<>(new TestCluster("a", "x")));
    assertThat(call.sent).hasSize(sent); // nothing new on the wire
  }

  @Test
  void unwatchedResourceLeavesTheWireAtOnceAndItsValueIsRetainedThenDropped() {
    newClient(b -> b.cacheRetention(Duration.ofMinutes(5)));
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    h.cancel();
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("b");
    clock.forwardTime(4, TimeUnit.MINUTES);

    RecordingWatcher<TestCluster> again = new RecordingWatcher<>();
    WatchHandle h2 = client.watch(TestTypes.CLUSTER, "a", again, DIRECT);
    assertThat(again.updates()).hasSize(1);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b");
    h2.cancel();
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("b");
    clock.forwardTime(5, TimeUnit.MINUTES);
    RecordingWatcher<TestCluster> late = watchCluster("a");
    assertThat(late.events()).isEmpty(); // dropped from the cache: nothing to serve
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.REQUESTED);
  }

  @Test
  void retainedResourceIsServedEvenWithTheControlPlaneAway() {
    newClient();
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    h.cancel();
    call.close(Status.UNAVAILABLE);
    clock.forwardTime(1, TimeUnit.SECONDS); // the reconnect after a recycled stream
    transport.last().close(Status.UNAVAILABLE); // now failing
    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.events()).hasSize(1).first().isInstanceOf(Update.class);
  }

  // ---- watcher registration ----

  @Test
  void registeringTheSameWatcherTwiceFailsOnTheCallersThread() {
    newClient();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    assertThatThrownBy(() -> client.watch(TestTypes.CLUSTER, "a", a, DIRECT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"a\"");
    client.watch(TestTypes.CLUSTER, "b", a, DIRECT); // another resource is fine
  }

  @Test
  void cancelIsIdempotentAndTheWatcherMayRegisterAgain() {
    newClient(b -> b.cacheRetention(Duration.ZERO));
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    RecordingWatcher<TestCluster> other = watchCluster("a");
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    ScriptedCall call = transport.last().ready();
    h.cancel();
    h.cancel();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(a.events()).isEmpty();
    assertThat(other.events()).hasSize(1);
    client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    assertThat(a.events()).hasSize(1);
  }

  // ---- flow control and close ----

  @Test
  void nextResponseIsRequestedOnlyAfterEveryCallbackRan() {
    newClient();
    List<Runnable> queued = new ArrayList<>();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    RecordingWatcher<TestCluster> b = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, queued::add);
    client.watch(TestTypes.CLUSTER, "b", b, queued::add);
    ScriptedCall call = transport.last().ready();
    assertThat(call.requested).isEqualTo(1);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("1"); // ACK goes out at once
    assertThat(call.requested).isEqualTo(1);
    assertThat(queued).hasSize(2);
    queued.get(0).run();
    assertThat(call.requested).isEqualTo(1);
    queued.get(1).run();
    assertThat(call.requested).isEqualTo(2);
  }

  @Test
  void closeWithCallbacksInFlightRunsNoFurtherCallback() {
    newClient();
    List<Runnable> queued = new ArrayList<>();
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, queued::add);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(queued).hasSize(1);

    client.close();
    queued.forEach(Runnable::run);
    assertThat(a.events()).isEmpty();
    assertThat(call.cancelled).isNotNull();
    assertThat(transport.shutdown).isTrue();
    assertThat(clock.numPendingTasks()).isZero();
    client.close();
    assertThatThrownBy(() -> client.watch(TestTypes.CLUSTER, "b", new RecordingWatcher<>(), DIRECT))
        .isInstanceOf(IllegalStateException.class);
    // Events of the dead stream are ignored.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a")));
    call.close(Status.CANCELLED);
    assertThat(transport.calls).hasSize(1);
  }

  @Test
  void watchRacingCloseEitherThrowsOrIsSweptByClose() throws Exception {
    for (int round = 0; round < 200; round++) {
      DefaultXdsClient c = newClient();
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
      java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic
          .AtomicReference<>();
      Thread watching =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < 50; i++) {
                    c.watch(TestTypes.CLUSTER, "c" + i, new RecordingWatcher<>(), DIRECT);
                  }
                } catch (IllegalStateException expected) {
                  // closed
                } catch (Throwable e) {
                  failure.set(e);
                }
              });
      watching.start();
      start.await();
      c.close();
      watching.join();
      assertThat(failure.get()).isNull();
      // A watch() that returned normally was registered before close() swept; one that came
      // after must have thrown and left nothing behind.
      assertThat(c.registrationCount()).as("round %d", round).isZero();
    }
  }

  @Test
  void watcherThatThrowsDoesNotStallTheStream() {
    newClient();
    client.watch(
        TestTypes.CLUSTER,
        "a",
        new RecordingWatcher<>() {
          @Override
          public synchronized void onUpdate(TestCluster value) {
            throw new IllegalStateException("boom");
          }
        },
        DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(call.requested).isEqualTo(2);
  }

  @Test
  void cancellingAWatcherWhoseExecutorDropsTasksReleasesTheStream() {
    newClient();
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), r -> {}); // drops every task
    RecordingWatcher<TestCluster> b = watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a", "eds-a"), cluster("b")));
    assertThat(b.events()).hasSize(1);
    assertThat(call.requested).isEqualTo(1); // a's callbacks never ran
    h.cancel();
    assertThat(call.requested).isEqualTo(3); // both responses' counts released
  }

  @Test
  void rejectingExecutorDoesNotStallTheStream() {
    newClient();
    client.watch(
        TestTypes.CLUSTER,
        "a",
        new RecordingWatcher<>(),
        r -> {
          throw new java.util.concurrent.RejectedExecutionException("shut down");
        });
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(call.requested).isEqualTo(2);
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("1");
  }

  @Test
  void anotherDescriptorForAWatchedTypeUrlIsRejectedOnTheCallersThread() {
    newClient();
    watchCluster("a");
    assertThatThrownBy(
            () -> client.watch(io.jxds.api.ResourceTypes.CLUSTER, "a", new RecordingWatcher<>(), DIRECT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(CLUSTER_TYPE_URL);
  }

  // ---- status ----

  @Test
  void statusShowsConnectionAndEveryResource() {
    newClient();
    assertThat(client.status().connected()).isFalse();
    assertThat(client.status().nodeId()).isEqualTo("node-1");
    watchCluster("b");
    watchCluster("a");
    watchEndpoints("e");
    assertThat(client.status().resources())
        .extracting(ResourceStatus::name)
        .containsExactly("a", "b", "e"); // by type URL then name
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).as("no ready stream yet").isEqualTo(ResourceState.UNKNOWN);
    ScriptedCall call = transport.last().ready();
    assertThat(status(CLUSTER_TYPE_URL, "a").state()).isEqualTo(ResourceState.REQUESTED);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    assertThat(client.status().connected()).isTrue();
    ResourceStatus a = status(CLUSTER_TYPE_URL, "a");
    assertThat(a.state()).isEqualTo(ResourceState.ACKED);
    assertThat(a.version()).isEqualTo("1");
    assertThat(a.lastUpdated()).contains(clock.clock().instant());
    assertThat(a.lastError()).isEmpty();
  }

  @Test
  void statusMayBeReadFromACallback() {
    newClient();
    List<Object> seen = new ArrayList<>();
    client.watch(
        TestTypes.CLUSTER,
        "a",
        new RecordingWatcher<>() {
          @Override
          public synchronized void onUpdate(TestCluster value) {
            seen.add(client.status());
          }
        },
        DIRECT);
    transport.last().ready().respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(seen).hasSize(1);
  }

  @Test
  void statusReadInACallbackShowsTheChangeTheCallbackIsAbout() {
    newClient();
    List<ResourceStatus> seen = new ArrayList<>();
    client.watch(
        TestTypes.CLUSTER,
        "a",
        new RecordingWatcher<>() {
          @Override
          public synchronized void onUpdate(TestCluster value) {
            seen.add(status(CLUSTER_TYPE_URL, "a"));
          }

          @Override
          public synchronized void onResourceDoesNotExist(String name) {
            seen.add(status(CLUSTER_TYPE_URL, "a"));
          }
        },
        DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a", "eds-a")));
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3"));
    assertThat(seen).extracting(ResourceStatus::state, ResourceStatus::version)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ResourceState.ACKED, "1"),
            org.assertj.core.groups.Tuple.tuple(ResourceState.ACKED, "2"),
            org.assertj.core.groups.Tuple.tuple(ResourceState.DOES_NOT_EXIST, "2"));
    assertThat(client.status().connected()).isTrue();
  }
}
