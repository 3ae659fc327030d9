package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.api.ResourceTypes.ENDPOINTS_TYPE_URL;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.WatchHandle;
import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.RecordingWatcher.Update;
import io.jxds.client.ScriptedTransport.ScriptedDeltaCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.FakeClock;
import io.jxds.testing.XdsResources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Delta xDS ({@code DeltaAggregatedResources}) against an in-memory transport and a manual clock:
 * what goes on the wire, ACK/NACK by nonce, removed_resources, initial_resource_versions, and the
 * watcher semantics shared with state of the world (A46, timers, retention).
 */
class DeltaProtocolTest {
  private static final Executor DIRECT = Runnable::run;
  private static final Node NODE = Node.newBuilder().setId("node-1").build();

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private DefaultXdsClient client = transport.clientBuilder(clock, NODE).deltaXds(true).build();

  @AfterEach
  void close() {
    client.close();
  }

  private static Resource cluster(String name, String version) {
    return resource(name, version, XdsResources.cluster(name).buildAny());
  }

  private static Resource invalidCluster(String name, String version) {
    return resource(name, version, XdsResources.cluster(name).edsConfigPath("/etc/eds.yaml").buildAny());
  }

  private static Resource endpoints(String name, String version) {
    return resource(name, version, XdsResources.endpoints(name)
        .locality("r", "z", "", l -> l.endpoint("10.0.0.1", 8080, HealthStatus.HEALTHY))
        .buildAny());
  }

  private static Resource resource(String name, String version, Any body) {
    return Resource.newBuilder().setName(name).setVersion(version).setResource(body).build();
  }

  private static DeltaDiscoveryResponse response(String typeUrl, String nonce, List<Resource> resources,
      String... removed) {
    return DeltaDiscoveryResponse.newBuilder()
        .setTypeUrl(typeUrl)
        .setSystemVersionInfo("sys-" + nonce)
        .setNonce(nonce)
        .addAllResources(resources)
        .addAllRemovedResources(List.of(removed))
        .build();
  }

  private RecordingWatcher<TestCluster> watchCluster(String name) {
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, name, w, DIRECT);
    return w;
  }

  @Test
  void requestsNameOnlyTheNamesThatChanged() {
    watchCluster("a");
    assertThat(transport.calls).as("no state-of-the-world call").isEmpty();
    ScriptedDeltaCall call = transport.lastDelta().ready();
    DeltaDiscoveryRequest first = call.lastRequest();
    assertThat(first.getTypeUrl()).isEqualTo(CLUSTER_TYPE_URL);
    assertThat(first.getResourceNamesSubscribeList()).containsExactly("a");
    assertThat(first.getResourceNamesUnsubscribeList()).isEmpty();
    assertThat(first.getResponseNonce()).isEmpty();
    assertThat(first.getNode().getId()).isEqualTo("node-1");

    RecordingWatcher<TestCluster> b = new RecordingWatcher<>();
    WatchHandle hb = client.watch(TestTypes.CLUSTER, "b", b, DIRECT);
    assertThat(call.lastRequest().getResourceNamesSubscribeList()).containsExactly("b");
    assertThat(call.lastRequest().getResourceNamesUnsubscribeList()).isEmpty();

    hb.cancel();
    assertThat(call.lastRequest().getResourceNamesSubscribeList()).isEmpty();
    assertThat(call.lastRequest().getResourceNamesUnsubscribeList()).containsExactly("b");
    assertThat(call.sent).hasSize(3);
  }

  @Test
  void lastNameOfATypeIsUnsubscribedNotHeld() {
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    WatchHandle h = client.watch(TestTypes.CLUSTER, "a", a, DIRECT);
    ScriptedDeltaCall call = transport.lastDelta().ready();
    h.cancel();
    assertThat(call.lastRequest().getResourceNamesUnsubscribeList()).containsExactly("a");
    assertThat(client.status().resources()).isEmpty();
  }

  @Test
  void burstOfWatchesInOneTurnSendsOneRequestOfTheNewNames() {
    watchCluster("seed");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("seed", "1"))));
    int before = call.sent.size();
    SubscriptionBatchingTest.watchBurstOnUpdate(client, "seed", 50);
    assertThat(call.sent).hasSize(before + 1);
    assertThat(call.lastRequest().getResourceNamesSubscribeList()).hasSize(50).doesNotContain("seed");
  }

  @Test
  void ackNamesTheResponseByNonce() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "v7"))));
    DeltaDiscoveryRequest ack = call.lastRequest();
    assertThat(ack.getResponseNonce()).isEqualTo("n1");
    assertThat(ack.hasErrorDetail()).isFalse();
    assertThat(ack.getResourceNamesSubscribeList()).isEmpty();
    assertThat(a.updates()).extracting(TestCluster::name).containsExactly("a");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().version()).isEqualTo("v7");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    assertThat(call.requested).as("flow control: the next response is asked for").isEqualTo(2);
  }

  @Test
  void nackCarriesTheNonceAndNamesEachRejectedResourceWhileTheValidOnesApply() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestCluster> b = watchCluster("b");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), invalidCluster("b", "1"))));
    DeltaDiscoveryRequest nack = call.lastRequest();
    assertThat(nack.getResponseNonce()).isEqualTo("n1");
    assertThat(nack.hasErrorDetail()).isTrue();
    assertThat(nack.getErrorDetail().getMessage()).contains("\"b\"").contains("eds_config").doesNotContain("\"a\"");
    assertThat(a.updates()).hasSize(1); // gRFC A46: the valid resource of a NACKed response applies
    assertThat(b.errors()).singleElement().satisfies(e -> assertThat(e.getDescription()).contains("rejected"));
  }

  @Test
  void removedResourcesDeleteClustersAndEndpoints() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    RecordingWatcher<TestEndpoints> e = new RecordingWatcher<>();
    client.watch(TestTypes.ENDPOINTS, "a", e, DIRECT);
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"))));
    call.respond(response(ENDPOINTS_TYPE_URL, "n2", List.of(endpoints("a", "1"))));

    call.respond(response(CLUSTER_TYPE_URL, "n3", List.of(), "a"));
    call.respond(response(ENDPOINTS_TYPE_URL, "n4", List.of(), "a"));

    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(e.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(client.status().resource(ENDPOINTS_TYPE_URL, "a").orElseThrow().state())
        .isEqualTo(ResourceState.DOES_NOT_EXIST);
  }

  @Test
  void resourceLeftOutOfAResponseIsUnchanged() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), cluster("b", "1"))));
    call.respond(response(CLUSTER_TYPE_URL, "n2", List.of(cluster("b", "2"))));
    assertThat(a.events()).hasSize(1).allMatch(ev -> ev instanceof Update<?>);
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().version()).isEqualTo("1");
  }

  @Test
  void unwatchedResourcesOfAWildcardServerAreAckedWithoutValidation() {
    watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), invalidCluster("other", "1"))));
    assertThat(call.lastRequest().hasErrorDetail()).isFalse();
    call.respond(response(ENDPOINTS_TYPE_URL, "n2", List.of(endpoints("x", "1"))));
    assertThat(call.lastRequest().getResponseNonce()).isEqualTo("n2");
    assertThat(call.lastRequest().hasErrorDetail()).isFalse();
  }

  @Test
  void resourceAWildcardServerSentBeforeItWasWatchedIsServedWhenWatched() {
    watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    // java-control-plane sends every cluster in delta ADS, and will not send "b" again.
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), cluster("b", "1"))));
    RecordingWatcher<TestCluster> b = watchCluster("b");
    assertThat(b.updates()).extracting(TestCluster::name).containsExactly("b");
    assertThat(call.lastRequest().getResourceNamesSubscribeList()).containsExactly("b");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "b").orElseThrow().version()).isEqualTo("1");
    clock.forwardTime(20, TimeUnit.SECONDS);
    assertThat(b.events()).hasSize(1); // no does-not-exist later
  }

  @Test
  void readyStreamCountsAsConnectedThoughTheServerHasNothingNew() {
    watchCluster("a");
    transport.lastDelta().ready();
    assertThat(client.status().connected()).isTrue();
  }

  @Test
  void newStreamTellsTheServerTheCachedVersions() {
    watchCluster("a");
    watchCluster("b");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "v1"))));
    call.close(Status.UNAVAILABLE); // after a response: recycled, reconnect after the backoff
    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedDeltaCall next = transport.lastDelta().ready();
    assertThat(next).isNotSameAs(call);
    DeltaDiscoveryRequest first = next.lastRequest();
    assertThat(first.getResourceNamesSubscribeList()).containsExactly("a", "b");
    assertThat(first.getInitialResourceVersionsMap()).isEqualTo(Map.of("a", "v1"));
    assertThat(first.getResponseNonce()).isEmpty();
  }

  @Test
  void unansweredNameDoesNotExistAfterTheResourceTimeout() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    clock.forwardTime(14, TimeUnit.SECONDS);
    assertThat(a.events()).isEmpty();
    clock.forwardTime(1, TimeUnit.SECONDS);
    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(call.sent).hasSize(1);
  }

  /** Watches {@code name}, gets version "1" of it, then cancels: its value is retained. */
  private ScriptedDeltaCall watchedThenRetained(String name) {
    WatchHandle h = client.watch(TestTypes.CLUSTER, name, new RecordingWatcher<>(), DIRECT);
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster(name, "1"))));
    h.cancel();
    return call;
  }

  @Test
  void retainedValueIsServedAtOnceAndSubscribedAgain() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    assertThat(call.lastRequest().getResourceNamesUnsubscribeList()).containsExactly("a");

    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.updates()).extracting(TestCluster::name).containsExactly("a");
    assertThat(call.lastRequest().getResourceNamesSubscribeList()).containsExactly("a");
    // The client ACKed that version; a server that still has it (java-control-plane's wildcard
    // clusters) sends nothing back, so it stays ACKED rather than REQUESTED forever.
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    // No answer within the resource timeout: the retained value stays (delta has no absence).
    clock.forwardTime(Duration.ofSeconds(20).toSeconds(), TimeUnit.SECONDS);
    assertThat(again.events()).hasSize(1);
  }

  /**
   * A wildcard server sent an invalid version while the name was unwatched: watched again, the
   * watcher still gets the retained good value first (a NACK keeps the last good value), then the
   * rejection. (Before, it heard only the error, and a channel failed with a cluster it had.)
   */
  @Test
  void retainedValueWatchedAgainAfterAnInvalidUnwatchedVersionServesTheValueThenTheError() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.respond(response(CLUSTER_TYPE_URL, "n2", List.of(invalidCluster("a", "2"))));

    RecordingWatcher<TestCluster> again = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", again, DIRECT);

    assertThat(again.events()).hasSize(2);
    assertThat(again.events().get(0)).isInstanceOfSatisfying(Update.class,
        u -> assertThat(((TestCluster) u.value()).name()).isEqualTo("a"));
    assertThat(again.events().get(1)).isInstanceOfSatisfying(RecordingWatcher.Error.class,
        e -> assertThat(e.status().getDescription()).contains("version \"2\" rejected", "resource \"a\""));
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().version()).isEqualTo("1");
  }

  /**
   * {@code removed_resources} is a deletion whether or not the name is watched at that moment: a
   * wildcard server (java-control-plane's delta Cluster) tells a client that holds a name
   * unwatched of its deletion, and sends nothing when the name is watched again.
   */
  @Test
  void removalReceivedWhileTheValueIsRetainedIsADeletion() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.respond(response(CLUSTER_TYPE_URL, "n2", List.of(), "a"));

    RecordingWatcher<TestCluster> again = watchCluster("a");
    clock.forwardTime(20, TimeUnit.SECONDS);

    assertThat(again.events()).containsExactly(new DoesNotExist("a"));
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state())
        .isEqualTo(ResourceState.DOES_NOT_EXIST);
  }

  /**
   * What a wildcard server sent for a name nobody watched is current only while the stream that
   * sent it lives: a new stream's initial_resource_versions does not name it (it is not
   * watched), so that server never tells the client of its deletion.
   */
  @Test
  void resourceAWildcardServerSentUnwatchedDoesNotOutliveItsStream() {
    watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), cluster("b", "1"))));
    call.close(Status.UNAVAILABLE); // after a response: recycled, reconnect after the backoff
    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedDeltaCall next = transport.lastDelta().ready();
    assertThat(next.lastRequest().getInitialResourceVersionsMap()).isEqualTo(Map.of("a", "1"));

    // "b" was deleted meanwhile; the new stream's server does not know the client ever had it.
    RecordingWatcher<TestCluster> b = watchCluster("b");
    assertThat(next.lastRequest().getResourceNamesSubscribeList()).containsExactly("b");
    clock.forwardTime(15, TimeUnit.SECONDS);

    assertThat(b.events()).containsExactly(new DoesNotExist("b"));
  }

  /**
   * A retained value outlives the stream that sent it (a channel waking while the control plane
   * is away still routes), but once watched again on a new stream, which was not told the client
   * holds it, it must be sent again: if the server sends nothing within the resource timeout, it
   * no longer exists.
   */
  @Test
  void retainedValueWatchedAgainOnANewStreamThatDoesNotSendItDoesNotExist() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.close(Status.UNAVAILABLE);
    clock.forwardTime(2, TimeUnit.SECONDS);
    watchCluster("other");
    ScriptedDeltaCall next = transport.lastDelta().ready();
    assertThat(next.lastRequest().getInitialResourceVersionsMap()).isEmpty();

    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.updates()).extracting(TestCluster::name).containsExactly("a"); // at once, from the cache
    clock.forwardTime(15, TimeUnit.SECONDS);

    assertThat(again.last()).isEqualTo(new DoesNotExist("a"));
  }

  @Test
  void retainedValueWatchedAgainOnANewStreamThatSendsItStays() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.close(Status.UNAVAILABLE);
    clock.forwardTime(2, TimeUnit.SECONDS);
    watchCluster("other");
    ScriptedDeltaCall next = transport.lastDelta().ready();

    RecordingWatcher<TestCluster> again = watchCluster("a");
    next.respond(response(CLUSTER_TYPE_URL, "n2", List.of(cluster("a", "1"))));
    clock.forwardTime(20, TimeUnit.SECONDS);

    assertThat(again.events()).hasSize(1).allMatch(e -> e instanceof Update<?>);
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
  }

  @Test
  void retainedValueWatchedAgainBeforeTheNextStreamIsNamedInItsInitialVersionsAndStays() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.close(Status.UNAVAILABLE);
    RecordingWatcher<TestCluster> again = watchCluster("a"); // while no stream is up

    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedDeltaCall next = transport.lastDelta().ready();
    // Told the client holds version "1", the server would send its change or removal.
    assertThat(next.lastRequest().getInitialResourceVersionsMap()).isEqualTo(Map.of("a", "1"));
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    clock.forwardTime(20, TimeUnit.SECONDS);

    assertThat(again.events()).hasSize(1).allMatch(e -> e instanceof Update<?>);
  }

  /**
   * A wildcard server deleted a retained value and then sent it again while nobody watched it:
   * the second is the newest the client knows. Watched again before the next stream, it is served
   * (not the older absence), and the next stream names its version in initial_resource_versions,
   * so that server tells the client of any later change or removal.
   */
  @Test
  void resourceReAddedWhileRetainedIsServedWhenWatchedBeforeTheNextStream() {
    ScriptedDeltaCall call = watchedThenRetained("a");
    call.respond(response(CLUSTER_TYPE_URL, "n2", List.of(), "a"));
    call.respond(response(CLUSTER_TYPE_URL, "n3", List.of(cluster("a", "2"))));
    call.close(Status.UNAVAILABLE);

    RecordingWatcher<TestCluster> again = watchCluster("a"); // while no stream is up
    assertThat(again.events()).hasSize(1).allMatch(e -> e instanceof Update<?>);

    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedDeltaCall next = transport.lastDelta().ready();
    assertThat(next.lastRequest().getInitialResourceVersionsMap()).isEqualTo(Map.of("a", "2"));
    clock.forwardTime(20, TimeUnit.SECONDS);
    assertThat(again.events()).hasSize(1);
  }

  /**
   * A value a wildcard server sent unwatched on a stream that has ended is served when watched in
   * the gap, but no live stream vouches for it: watched again after a cancel it is unconfirmed
   * until the next stream is told of it.
   */
  @Test
  void keptValueOfAnEndedStreamIsNotVouchedForUntilTheNextStreamIsToldOfIt() {
    watchCluster("a");
    ScriptedDeltaCall call = transport.lastDelta().ready();
    call.respond(response(CLUSTER_TYPE_URL, "n1", List.of(cluster("a", "1"), cluster("b", "7"))));
    call.close(Status.UNAVAILABLE);

    WatchHandle first = client.watch(TestTypes.CLUSTER, "b", new RecordingWatcher<>(), DIRECT);
    first.cancel();
    RecordingWatcher<TestCluster> again = watchCluster("b"); // still no stream
    assertThat(again.updates()).extracting(TestCluster::name).containsExactly("b");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "b").orElseThrow().state())
        .isEqualTo(ResourceState.REQUESTED);

    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedDeltaCall next = transport.lastDelta().ready();
    assertThat(next.lastRequest().getInitialResourceVersionsMap()).containsEntry("b", "7");
    assertThat(client.status().resource(CLUSTER_TYPE_URL, "b").orElseThrow().state())
        .isEqualTo(ResourceState.ACKED);
  }
}
