package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Status;
import io.jxds.client.RecordingWatcher.Error;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.client.ScriptedTransport.ScriptedDeltaCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.testing.FakeClock;
import io.jxds.testing.XdsResources;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * gRFC A71 (xDS fallback) on in-memory transports and a manual clock: when the client moves to
 * the next server, when it comes back, and what watchers hear meanwhile.
 */
class FallbackTest {
  private static final Executor DIRECT = Runnable::run;

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport primary = new ScriptedTransport();
  private final ScriptedTransport fallback = new ScriptedTransport();
  private final DefaultXdsClient client = primary.clientBuilder(clock, Node.newBuilder().setId("n").build())
      .addFallbackTransport(fallback, false)
      .build();

  @AfterEach
  void close() {
    client.close();
  }

  private RecordingWatcher<TestCluster> watch(String name) {
    RecordingWatcher<TestCluster> w = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, name, w, DIRECT);
    return w;
  }

  private static com.google.protobuf.Any cluster(String name, String eds) {
    return XdsResources.cluster(name).edsServiceName(eds).buildAny();
  }

  @Test
  void primaryUnreachableAtStartFallsBackWithoutTellingWatchers() {
    RecordingWatcher<TestCluster> a = watch("a");
    assertThat(fallback.calls).isEmpty();
    primary.last().close(Status.UNAVAILABLE.withDescription("connection refused"));

    assertThat(fallback.calls).hasSize(1);
    ScriptedCall call = fallback.last().ready();
    assertThat(call.lastRequest().getResourceNamesList()).containsExactly("a");
    assertThat(a.events()).as("the fallback may answer: no error yet").isEmpty();
    call.respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "from-fallback")));
    assertThat(a.updates()).extracting(TestCluster::edsServiceName).containsExactly("from-fallback");
    assertThat(client.status().connected()).isTrue();
  }

  @Test
  void lastServerUnreachableTellsWatchersWithoutData() {
    RecordingWatcher<TestCluster> a = watch("a");
    primary.last().close(Status.UNAVAILABLE);
    fallback.last().close(Status.UNAVAILABLE.withDescription("refused too"));
    assertThat(a.last()).isInstanceOf(Error.class);
    assertThat(((Error) a.last()).status().getDescription()).contains("refused too");
  }

  @Test
  void primaryBackTakesOverAndTheFallbackStreamIsClosed() {
    RecordingWatcher<TestCluster> a = watch("a");
    primary.last().close(Status.UNAVAILABLE);
    ScriptedCall onFallback = fallback.last().ready();
    onFallback.respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "from-fallback")));

    clock.forwardTime(2, TimeUnit.SECONDS); // the primary's backoff: it keeps retrying
    assertThat(primary.calls).hasSize(2);
    ScriptedCall back = primary.last().ready();
    assertThat(back.lastRequest().getResourceNamesList()).containsExactly("a");
    assertThat(onFallback.cancelled).isNull();
    back.respond(response(CLUSTER_TYPE_URL, "p1", "n1", cluster("a", "from-primary")));

    assertThat(onFallback.cancelled).as("fallback stream dropped").isNotNull();
    assertThat(a.updates()).extracting(TestCluster::edsServiceName)
        .containsExactly("from-fallback", "from-primary");
    // The fallback is not reopened: nothing retries it.
    clock.forwardTime(200, TimeUnit.SECONDS);
    assertThat(fallback.calls).hasSize(1);
    // New names go to the primary only.
    watch("b");
    assertThat(back.lastRequest().getResourceNamesList()).containsExactly("a", "b");
    assertThat(onFallback.sent).noneMatch(r -> r.getResourceNamesList().contains("b"));
  }

  @Test
  void primaryLostAfterDataArrivedDoesNotFallBack() {
    RecordingWatcher<TestCluster> a = watch("a");
    ScriptedCall call = primary.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "p1", "n1", cluster("a", "from-primary")));
    call.close(Status.UNAVAILABLE); // after a response: recycled
    clock.forwardTime(2, TimeUnit.SECONDS);
    primary.last().close(Status.UNAVAILABLE.withDescription("refused")); // now a failure

    assertThat(fallback.calls).as("everything watched is cached").isEmpty();
    assertThat(a.events()).hasSize(1);
    assertThat(client.status().connected()).isFalse();
  }

  @Test
  void uncachedWatchWhilePrimaryIsDownFallsBack() {
    RecordingWatcher<TestCluster> a = watch("a");
    ScriptedCall call = primary.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "p1", "n1", cluster("a", "x")));
    call.close(Status.UNAVAILABLE);
    clock.forwardTime(2, TimeUnit.SECONDS);
    primary.last().close(Status.UNAVAILABLE);
    assertThat(fallback.calls).isEmpty();

    RecordingWatcher<TestCluster> b = watch("b");

    assertThat(fallback.calls).hasSize(1);
    ScriptedCall onFallback = fallback.last().ready();
    assertThat(onFallback.lastRequest().getResourceNamesList()).containsExactly("a", "b");
    onFallback.respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "x"), cluster("b", "y")));
    assertThat(b.updates()).hasSize(1);
    assertThat(a.events()).hasSize(1); // unchanged value: not told again
  }

  @Test
  void doesNotExistFromThePrimaryCountsAsCached() {
    RecordingWatcher<TestCluster> a = watch("a");
    primary.last().ready();
    clock.forwardTime(15, TimeUnit.SECONDS);
    assertThat(a.last()).isInstanceOf(RecordingWatcher.DoesNotExist.class);
    primary.last().close(Status.UNAVAILABLE);
    assertThat(fallback.calls).isEmpty();
  }

  /**
   * gRFC A71: the lower-priority server is closed only once a resource arrives from the higher
   * one. A delta stream counts as connected when it is ready (a delta server with nothing new
   * need not answer), but a proxy in front of a dead control plane makes it ready too.
   */
  @Test
  void deltaPrimaryWhoseStreamIsReadyButSendsNothingDoesNotReplaceTheFallback() {
    ScriptedTransport deltaPrimary = new ScriptedTransport();
    ScriptedTransport sotwFallback = new ScriptedTransport();
    try (DefaultXdsClient c = deltaPrimary.clientBuilder(clock, Node.newBuilder().setId("n").build())
        .deltaXds(true)
        .addFallbackTransport(sotwFallback, false)
        .build()) {
      RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
      c.watch(TestTypes.CLUSTER, "a", a, DIRECT);
      deltaPrimary.lastDelta().close(Status.UNAVAILABLE.withDescription("connection refused"));
      ScriptedCall onFallback = sotwFallback.last().ready();
      onFallback.respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "from-fallback")));

      clock.forwardTime(2, TimeUnit.SECONDS); // the primary retries after its backoff
      ScriptedDeltaCall back = deltaPrimary.lastDelta().ready(); // a proxy accepts the connection
      assertThat(onFallback.cancelled).as("the primary has sent nothing yet").isNull();
      back.close(Status.UNAVAILABLE.withDescription("upstream connect error"));

      assertThat(onFallback.cancelled).isNull();
      onFallback.respond(response(CLUSTER_TYPE_URL, "f2", "n2", cluster("a", "fallback-2")));
      assertThat(a.updates()).extracting(TestCluster::edsServiceName)
          .containsExactly("from-fallback", "fallback-2");
      assertThat(c.status().connected()).isTrue();

      // Once the primary sends something, it serves and the fallback is closed.
      clock.forwardTime(5, TimeUnit.SECONDS);
      ScriptedDeltaCall answering = deltaPrimary.lastDelta().ready();
      answering.respond(DeltaDiscoveryResponse.newBuilder()
          .setTypeUrl(CLUSTER_TYPE_URL)
          .setNonce("p1")
          .addResources(Resource.newBuilder().setName("a").setVersion("1").setResource(cluster("a", "from-primary")))
          .build());
      assertThat(onFallback.cancelled).as("fallback stream closed").isNotNull();
      assertThat(a.updates()).extracting(TestCluster::edsServiceName).last().isEqualTo("from-primary");
    }
  }

  @Test
  void stateOfTheWorldPrimaryWhoseStreamIsReadyButSendsNothingDoesNotReplaceTheFallback() {
    RecordingWatcher<TestCluster> a = watch("a");
    primary.last().close(Status.UNAVAILABLE);
    ScriptedCall onFallback = fallback.last().ready();
    onFallback.respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "from-fallback")));

    clock.forwardTime(2, TimeUnit.SECONDS);
    primary.last().ready().close(Status.UNAVAILABLE.withDescription("upstream connect error"));

    assertThat(onFallback.cancelled).isNull();
    onFallback.respond(response(CLUSTER_TYPE_URL, "f2", "n2", cluster("a", "fallback-2")));
    assertThat(a.updates()).extracting(TestCluster::edsServiceName).containsExactly("from-fallback", "fallback-2");
  }

  @Test
  void aFallbackChosenAgainRequestsTheNamesWatchedNowNotThoseOfItsLastTurn() {
    io.jxds.api.WatchHandle a = client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), DIRECT);
    primary.last().close(Status.UNAVAILABLE);
    fallback.last().ready().respond(response(CLUSTER_TYPE_URL, "f1", "n1", cluster("a", "from-fallback")));
    clock.forwardTime(2, TimeUnit.SECONDS);
    ScriptedCall back = primary.last().ready();
    back.respond(response(CLUSTER_TYPE_URL, "p1", "n1", cluster("a", "from-primary")));
    assertThat(fallback.last().cancelled).as("fallback left").isNotNull();

    // As many names as before, other ones, while the fallback is idle.
    watch("b");
    a.cancel();
    assertThat(back.lastRequest().getResourceNamesList()).containsExactly("b");
    back.close(Status.UNAVAILABLE); // after a response: recycled
    clock.forwardTime(2, TimeUnit.SECONDS);
    primary.last().close(Status.UNAVAILABLE.withDescription("refused")); // b knows nothing: fall back

    assertThat(fallback.calls).hasSize(2);
    ScriptedCall again = fallback.last().ready();
    assertThat(again.lastRequest().getResourceNamesList()).as("the fallback's first request").containsExactly("b");
  }
}
