package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.api.ResourceTypes.ENDPOINTS_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.WatchHandle;
import io.jxds.client.RecordingWatcher.DoesNotExist;
import io.jxds.client.RecordingWatcher.Update;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.TestTypes.TestEndpoints;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The life of a subscription: on the wire exactly while watched, cached a while after, deletions
 * that conclude across recycled streams, and what a watcher hears while the stream is failing.
 * In-memory transport, manual clock, default knobs (resource timeout 15 s, cache retention 5 min).
 */
class SubscriptionLifecycleTest {
  private static final Executor DIRECT = Runnable::run;

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private DefaultXdsClient client;

  @BeforeEach
  void newClient() {
    client =
        XdsClientBuilder.forTarget("unused.invalid:1", InsecureChannelCredentials.create())
            .transport(transport)
            .node(Node.newBuilder().setId("node-1").build())
            .scheduler(clock)
            .clock(clock.clock())
            .random(TestRandom.fixed(0.5)) // no jitter: exact backoff delays
            .build();
  }

  @AfterEach
  void close() {
    client.close();
  }

  private static Any cluster(String name) {
    return XdsResources.cluster(name).buildAny();
  }

  private static Any invalidCluster(String name) {
    return XdsResources.cluster(name).edsConfigPath("/etc/eds.yaml").buildAny();
  }

  private static Any cluster(String name, String edsServiceName) {
    return XdsResources.cluster(name).edsServiceName(edsServiceName).buildAny();
  }

  private RecordingWatcher<TestCluster> watchCluster(String name) {
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, name, w, DIRECT);
    return w;
  }

  private WatchHandle watchCluster(String name, RecordingWatcher<TestCluster> w) {
    return client.watch(TestTypes.CLUSTER, name, w, DIRECT);
  }

  /** Watches a and b, receives both at version 1, then a's only watcher leaves. */
  private ScriptedCall unwatchAWhileBStaysWatched() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    a.cancel();
    return call;
  }

  private Optional<ResourceStatus> status(String name) {
    return client.status().resource(CLUSTER_TYPE_URL, name);
  }

  // ---- on the wire is what is watched ----

  @Test
  void lastWatcherLeavingTakesTheNameOffTheNextRequestAtOnce() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    int sent = call.sent.size();

    a.cancel();

    assertThat(call.sent).hasSize(sent + 1);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("b");
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("1");
    assertThat(call.lastRequest().getResponseNonce()).isEqualTo("n1");
    assertThat(status("a")).isEmpty(); // retained, not subscribed: not listed
    assertThat(status("b")).isPresent();
  }

  @Test
  void lastNameOfATypeLeavingSendsNothingAndItsStandingRequestIsStillHonoured() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    client.watch(TestTypes.ENDPOINTS, "e", new RecordingWatcher<TestEndpoints>(), DIRECT);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    int sent = call.sent.size();

    a.cancel();

    // An empty resource_names reads as a wildcard to some servers: nothing is sent instead, and
    // the request for [a] stands.
    assertThat(call.sent).hasSize(sent);
    assertThat(status("a")).isEmpty(); // not watched: not listed
    // The server still answers it: applied to the held name and ACKed with it (never with an
    // empty list); names the request never had are ignored.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a", "changed"), cluster("x")));
    assertThat(call.sent).hasSize(sent + 1);
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a");
    assertThat(call.lastRequest().getVersionInfo()).isEqualTo("2");
    assertThat(status("x")).isEmpty();

    // Watched again: the server never saw "a" leave and would not send it again; the held value
    // is current.
    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.events()).containsExactly(new Update<>(new TestCluster("a", "changed")));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    assertThat(status("a").orElseThrow().version()).isEqualTo("2");
    clock.forwardTime(60, TimeUnit.SECONDS); // no does-not-exist timer for it
    assertThat(again.events()).hasSize(1);
  }

  @Test
  void heldNameLeavesTheWireWhenAnotherNameOfItsTypeIsWatched() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    a.cancel();

    watchCluster("b");
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("b");
    // "a" is retained off the wire now: a response without it deletes nothing.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("b")));
    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.events()).containsExactly(new Update<>(new TestCluster("a", "")));
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b");
  }

  @Test
  void nameForgottenWhenItsHoldEndsStaysOnTheWireWhenWatchedAgain() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1")); // answers the request naming "a": no "a"
    a.cancel(); // the type's last name: held, and its absence retained for the retention time
    // A NACK of the held name leaves nothing to retain: the hold's end forgets it.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", invalidCluster("a")));
    watchCluster("b");
    RecordingWatcher<TestCluster> again = watchCluster("a");
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a"), cluster("b")));

    clock.forwardTime(5, TimeUnit.MINUTES); // the retention time "a" had while held is over
    watchCluster("c");

    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b", "c");
    assertThat(status("a")).isPresent();
    call.respond(response(CLUSTER_TYPE_URL, "4", "n4", cluster("a", "changed"), cluster("b"), cluster("c")));
    assertThat(again.last()).isEqualTo(new Update<>(new TestCluster("a", "changed")));
  }

  @Test
  void aNewStreamRequestsOnlyWatchedNames() {
    ScriptedCall call = unwatchAWhileBStaysWatched();
    call.close(Status.UNAVAILABLE.withDescription("recycled"));
    awaitReconnect();
    ScriptedCall second = transport.last().ready();
    assertThat(second.sent).hasSize(1);
    assertThat(second.lastRequest().getResourceNamesList()).containsExactly("b");
  }

  // ---- the retained value ----

  @Test
  void watcherComingBackGetsTheCachedValueAtOnceAndTheNameIsRequestedAgain() {
    RecordingWatcher<TestCluster> first = new RecordingWatcher<>();
    WatchHandle a = watchCluster("a", first);
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a", "x"), cluster("b")));
    a.cancel();
    clock.forwardTime(4, TimeUnit.MINUTES);

    RecordingWatcher<TestCluster> again = watchCluster("a");

    assertThat(again.events()).containsExactly(new Update<>(new TestCluster("a", "x")));
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b");
    ResourceStatus s = status("a").orElseThrow();
    // No response came since a left the wire: its value is at the version the client ACKed.
    assertThat(s.state()).isEqualTo(ResourceState.ACKED);
    assertThat(s.version()).isEqualTo("1");
    // A fresh response updates it.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a", "y"), cluster("b")));
    assertThat(again.updates()).containsExactly(new TestCluster("a", "x"), new TestCluster("a", "y"));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    assertThat(first.events()).hasSize(1);
  }

  @Test
  void watcherComingBackAfterNewerResponsesIsRequestedUntilOneCoversItsName() {
    ScriptedCall call = unwatchAWhileBStaysWatched();
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));

    RecordingWatcher<TestCluster> again = watchCluster("a");

    assertThat(again.updates()).containsExactly(new TestCluster("a", ""));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.REQUESTED);
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a"), cluster("b")));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.ACKED);
    assertThat(status("a").orElseThrow().version()).isEqualTo("3");
  }

  @Test
  void deletedNameWatchedAgainIsStillKnownNotToExist() {
    WatchHandle a = watchCluster("a", new RecordingWatcher<>());
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b"))); // a deleted
    a.cancel();

    RecordingWatcher<TestCluster> again = watchCluster("a");

    assertThat(again.events()).containsExactly(new DoesNotExist("a"));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("b")));
    clock.forwardTime(15, TimeUnit.SECONDS);
    assertThat(again.events()).containsExactly(new DoesNotExist("a"));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
    call.respond(response(CLUSTER_TYPE_URL, "4", "n4", cluster("a", "back"), cluster("b")));
    assertThat(again.last()).isEqualTo(new Update<>(new TestCluster("a", "back")));
  }

  @Test
  void retainedValueIsNeitherTimedNorDeletedWhileUnsubscribed() {
    ScriptedCall call = unwatchAWhileBStaysWatched();
    // State-of-the-world responses no longer cover "a": its absence is not a deletion.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    call.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("b")));
    clock.forwardTime(60, TimeUnit.SECONDS);

    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.events()).containsExactly(new Update<>(new TestCluster("a", "")));
  }

  @Test
  void retainedValueIsForgottenAfterTheRetentionTime() {
    ScriptedCall call = unwatchAWhileBStaysWatched();
    clock.forwardTime(5, TimeUnit.MINUTES);

    RecordingWatcher<TestCluster> again = watchCluster("a");
    assertThat(again.events()).isEmpty();
    assertThat(status("a").orElseThrow().version()).isEmpty();
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a", "b");
  }

  @Test
  void reSubscribedNameMissingFromResponsesIsDeletedOnceTheResourceTimeoutHasPassed() {
    ScriptedCall call = unwatchAWhileBStaysWatched();

    RecordingWatcher<TestCluster> again = watchCluster("a");
    // May have been sent before the server saw the request for "a" again: proves nothing yet.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    assertThat(again.events()).hasSize(1).first().isInstanceOf(Update.class);
    clock.forwardTime(14, TimeUnit.SECONDS);
    assertThat(again.events()).hasSize(1);
    // A server answers a request that adds a name; the resource timeout passed with responses
    // that all lack it: it was deleted while nobody watched it.
    clock.forwardTime(1, TimeUnit.SECONDS);
    assertThat(again.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
  }

  @Test
  void reSubscribedNameKeepsItsValueWhenNoResponseComesWithinTheResourceTimeout() {
    ScriptedCall call = unwatchAWhileBStaysWatched();
    RecordingWatcher<TestCluster> again = watchCluster("a");

    clock.forwardTime(15, TimeUnit.SECONDS); // a server that believes the client holds it is silent

    assertThat(again.events()).hasSize(1).first().isInstanceOf(Update.class);
    // From now on a response without "a" is its deletion.
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b")));
    assertThat(again.last()).isEqualTo(new DoesNotExist("a"));
  }

  // ---- a deletion that concludes across recycled streams ----

  /** Watches a and b, receives both, then the server recycles the stream; returns a's watcher. */
  private RecordingWatcher<TestCluster> watchAAndBThenRecycleTheStream() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    watchCluster("b");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a"), cluster("b")));
    call.close(Status.UNAVAILABLE.withDescription("max connection age"));
    awaitReconnect();
    return a;
  }

  /** The stream that just closed lived less than the backoff: gRFC A57 waits out the rest. */
  private void awaitReconnect() {
    int calls = transport.calls.size();
    clock.forwardTime(clock.nanosUntilNextTask(), TimeUnit.NANOSECONDS);
    assertThat(transport.calls).hasSize(calls + 1);
  }

  @Test
  void deletionPostponedByStreamsRecycledFasterThanTheResourceTimeoutIsConcludedAfterIt() {
    RecordingWatcher<TestCluster> a = watchAAndBThenRecycleTheStream();

    // Every stream gets one response that lacks "a", and the server recycles it 5 s later.
    long elapsedSeconds = 0;
    for (int stream = 0; stream < 12 && !(a.last() instanceof DoesNotExist); stream++) {
      ScriptedCall s = transport.last().ready();
      s.respond(response(CLUSTER_TYPE_URL, "2", "n" + stream, cluster("b")));
      if (a.last() instanceof DoesNotExist) {
        break;
      }
      clock.forwardTime(5, TimeUnit.SECONDS);
      elapsedSeconds += 5;
      s.close(Status.UNAVAILABLE.withDescription("max connection age"));
    }

    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
    assertThat(elapsedSeconds).isEqualTo(15);
    assertThat(status("a").orElseThrow().state()).isEqualTo(ResourceState.DOES_NOT_EXIST);
  }

  @Test
  void nameSeenAgainRestartsTheCountOfAPostponedDeletion() {
    RecordingWatcher<TestCluster> a = watchAAndBThenRecycleTheStream();
    ScriptedCall second = transport.last().ready();
    second.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("b"))); // missing since 0 s
    clock.forwardTime(10, TimeUnit.SECONDS);
    second.respond(response(CLUSTER_TYPE_URL, "3", "n3", cluster("a"), cluster("b"))); // back
    second.close(Status.UNAVAILABLE);
    ScriptedCall third = transport.last().ready();
    third.respond(response(CLUSTER_TYPE_URL, "4", "n4", cluster("b"))); // missing since 10 s
    clock.forwardTime(14, TimeUnit.SECONDS);
    assertThat(a.events()).hasSize(1);
    clock.forwardTime(1, TimeUnit.SECONDS);
    assertThat(a.last()).isEqualTo(new DoesNotExist("a"));
  }

  // ---- a new watcher while the stream is failing ----

  @Test
  void watcherAddedWhileTheStreamIsFailingHearsTheErrorAtOnceThenData() {
    RecordingWatcher<TestCluster> a = watchCluster("a");
    transport.last().close(Status.UNAVAILABLE.withDescription("connection refused"));
    assertThat(a.errors()).hasSize(1);
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(1)); // in backoff

    RecordingWatcher<TestEndpoints> e = new RecordingWatcher<>();
    client.watch(TestTypes.ENDPOINTS, "e", e, DIRECT);

    assertThat(e.errors()).hasSize(1);
    Status error = e.errors().get(0);
    assertThat(error.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(error.getDescription())
        .startsWith("ADS stream to scripted failed: UNAVAILABLE: connection refused")
        .contains("EDS resource \"e\"")
        .contains("node-1");
    assertThat(client.status().resource(ENDPOINTS_TYPE_URL, "e").orElseThrow().lastError())
        .hasValueSatisfying(text -> assertThat(text).contains("connection refused"));
    assertThat(transport.calls).hasSize(1); // nothing new on the wire: still in backoff

    clock.forwardTime(1, TimeUnit.SECONDS);
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.respond(
        response(
            ENDPOINTS_TYPE_URL,
            "1",
            "n2",
            XdsResources.endpoints("e")
                .locality("r", "z", "", l -> l.endpoint("10.0.0.1", 80, HealthStatus.HEALTHY))
                .buildAny()));
    assertThat(a.updates()).hasSize(1);
    assertThat(e.updates()).containsExactly(new TestEndpoints("e", java.util.List.of("10.0.0.1:80")));

    // Connected again: a new watcher waits for data instead of hearing the old error.
    RecordingWatcher<TestCluster> c = watchCluster("c");
    assertThat(c.events()).isEmpty();
  }

  // ---- why a name does not exist ----

  @Test
  void doesNotExistWithoutAnyResponseOfTheTypeSaysSo() {
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    RecordingWatcher<TestCluster> b = watchCluster("b");
    clock.forwardTime(15, TimeUnit.SECONDS);
    assertThat(b.events()).containsExactly(new DoesNotExist("b"));
    assertThat(status("b").orElseThrow().lastError())
        .hasValueSatisfying(e -> assertThat(e).contains("no CDS response at all since it was requested"));

    // With a response of the type in the meantime, the text does not blame a held-back response.
    RecordingWatcher<TestCluster> c = watchCluster("c");
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", cluster("a")));
    clock.forwardTime(15, TimeUnit.SECONDS);
    assertThat(c.events()).containsExactly(new DoesNotExist("c"));
    assertThat(status("c").orElseThrow().lastError()).hasValue("not received within 15 s");
  }
}
