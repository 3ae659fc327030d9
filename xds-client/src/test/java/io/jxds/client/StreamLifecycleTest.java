package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.client.TestTypes.TestCluster;
import io.jxds.client.internal.metrics.Telemetry;
import io.jxds.client.internal.stream.AdsServer;
import io.jxds.client.internal.stream.AdsTransport;
import io.jxds.testing.FakeClock;
import io.jxds.testing.XdsResources;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ADS stream's life: reconnect pacing after recycled streams (gRFC A57), closing while a
 * stream fails to start, and the size of what a NACK sends back.
 */
class StreamLifecycleTest {
  private static final Status REFUSED =
      Status.UNAVAILABLE.withDescription("cannot connect: connection refused");
  private static final Node NODE = Node.newBuilder().setId("node-1").build();

  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private DefaultXdsClient client;

  private DefaultXdsClient newClient(Consumer<XdsClientBuilder> config) {
    XdsClientBuilder builder = transport.clientBuilder(clock, NODE);
    config.accept(builder);
    client = builder.build();
    return client;
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

  private void watchCluster(String name) {
    client.watch(TestTypes.CLUSTER, name, new RecordingWatcher<>(), Runnable::run);
  }

  /** Runs due timers until a new call starts; returns the fake nanoseconds that took. */
  private long awaitNextCall(int callsBefore) {
    long start = clock.nanoTime();
    for (int timers = 0; transport.calls.size() == callsBefore; timers++) {
      assertThat(timers).as("timers run without a new call").isLessThan(100);
      long next = clock.nanosUntilNextTask();
      assertThat(next).as("a retry is scheduled").isNotNegative();
      clock.forwardNanos(next);
    }
    return clock.nanoTime() - start;
  }

  // ---- 1. reconnect pacing after a response (gRFC A57) ----

  @Test
  void serverClosingAfterEveryResponseDoesNotMakeTheClientReconnectInATightLoop() {
    newClient(b -> {});
    watchCluster("a");
    int recycles = 100;
    long start = clock.nanoTime();
    for (int i = 0; i < recycles; i++) {
      ScriptedCall call = transport.last().ready();
      call.respond(response(CLUSTER_TYPE_URL, "1", "n" + i, cluster("a")));
      int calls = transport.calls.size();
      call.close(Status.UNAVAILABLE.withDescription("closed after a response"));
      awaitNextCall(calls);
    }
    double seconds = (clock.nanoTime() - start) / 1e9;
    // Each recycled stream lived 0 s, so each reconnect waits the reset backoff's first delay (1 s).
    assertThat(seconds).isGreaterThan(50);
    assertThat(transport.calls).hasSize(recycles + 1);
    assertThat(recycles / seconds).as("streams per second").isLessThanOrEqualTo(1.0);
  }

  /** A new client whose stream got its first response. */
  private ScriptedCall respondedStream() {
    newClient(b -> {});
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    return call;
  }

  @Test
  void streamThatLivedLongerThanTheBackoffIsReplacedAtOnce() {
    ScriptedCall call = respondedStream();
    clock.forwardTime(1500, TimeUnit.MILLISECONDS);
    call.close(Status.UNAVAILABLE.withDescription("max connection age"));

    assertThat(transport.calls).hasSize(2);
    assertThat(clock.numPendingTasks()).isZero();
    assertThat(client.status().connected()).isTrue(); // a recycled stream is no error
  }

  @Test
  void streamThatLivedPartOfTheBackoffWaitsOnlyTheRest() {
    ScriptedCall call = respondedStream();
    clock.forwardTime(400, TimeUnit.MILLISECONDS);
    call.close(Status.UNAVAILABLE.withDescription("max connection age"));

    assertThat(transport.calls).hasSize(1);
    assertThat(awaitNextCall(1)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(600));
  }

  @Test
  void streamLifetimeIsMeasuredOnTheTickerNotTheWallClock() {
    // A wall clock that jumps forward (NTP) must not make a 0 s stream look long-lived.
    Clock jumping = Clock.offset(clock.clock(), Duration.ofHours(1));
    newClient(b -> b.clock(new Clock() {
      private boolean jumped;

      @Override
      public java.time.ZoneId getZone() {
        return jumping.getZone();
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public java.time.Instant instant() {
        java.time.Instant now = jumped ? jumping.instant() : clock.clock().instant();
        jumped = true;
        return now;
      }
    }));
    watchCluster("a");
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.close(Status.UNAVAILABLE);
    assertThat(transport.calls).hasSize(1);
    assertThat(awaitNextCall(1)).isEqualTo(TimeUnit.SECONDS.toNanos(1));
  }

  // ---- 5. a stream that waits for the connection ----

  @Test
  void failingToConnectWhileTheStreamWaitsTellsWatchersAndKeepsTheStream() {
    newClient(b -> {});
    RecordingWatcher<TestCluster> a = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "a", a, Runnable::run);
    ScriptedCall call = transport.last();

    call.listener.onConnectionFailure(REFUSED);

    assertThat(a.errors()).hasSize(1);
    assertThat(a.errors().get(0).getDescription())
        .startsWith("ADS stream to scripted failed: UNAVAILABLE: cannot connect")
        .contains("\"a\"", "node-1");
    assertThat(client.status().connected()).isFalse();
    clock.forwardTime(60, TimeUnit.SECONDS);
    assertThat(transport.calls).hasSize(1); // no new stream: this one starts once connected

    // A name subscribed while the channel cannot connect hears it at once.
    RecordingWatcher<TestCluster> b = new RecordingWatcher<>();
    client.watch(TestTypes.CLUSTER, "b", b, Runnable::run);
    assertThat(b.errors()).hasSize(1);
    assertThat(b.errors().get(0).getDescription()).startsWith("ADS stream to scripted failed: UNAVAILABLE");

    call.ready();
    assertThat(call.sent).hasSize(1);
    assertThat(call.sent.get(0).getResourceNamesList()).containsExactly("a", "b");
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    assertThat(client.status().connected()).isTrue();
    assertThat(a.updates()).hasSize(1);
  }

  @Test
  void timeSpentWaitingForTheConnectionIsNotTheStreamsLife() {
    newClient(b -> {});
    watchCluster("a");
    ScriptedCall call = transport.last();
    call.listener.onConnectionFailure(REFUSED);
    clock.forwardTime(30, TimeUnit.SECONDS); // waiting for the channel
    call.ready();
    call.close(Status.UNAVAILABLE.withDescription("reset by peer")); // failed once connected

    assertThat(transport.calls).hasSize(1);
    assertThat(clock.nanosUntilNextTask()).isEqualTo(TimeUnit.SECONDS.toNanos(1)); // the full backoff
  }

  @Test
  void reconnectIsNudgedFourTimesEarlyInAnOutageThenLeftToTheChannel() {
    CountingTransport nudgeable = new CountingTransport(transport);
    newClient(b -> b.transport(nudgeable));
    watchCluster("a");
    ScriptedCall call = transport.last();
    List<Long> nudgedAtMillis = new ArrayList<>();
    nudgeable.onReconnect = () -> {
      nudgedAtMillis.add(TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()));
      call.listener.onConnectionFailure(REFUSED); // the attempt it caused failed too
      return true;
    };
    call.listener.onConnectionFailure(REFUSED);
    // The channel's own attempts keep failing for ten minutes.
    for (int second = 1; second <= 600; second++) {
      clock.forwardTime(1, TimeUnit.SECONDS);
      call.listener.onConnectionFailure(REFUSED);
    }

    assertThat(nudgedAtMillis).containsExactly(250L, 650L, 1290L, 2314L);
    assertThat(transport.calls).as("stream attempts against a dead server").hasSize(1);
    assertThat(clock.numPendingTasks()).isZero();

    // Connected again: the next outage gets its nudges.
    call.ready().respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    clock.forwardTime(5, TimeUnit.SECONDS);
    call.close(Status.UNAVAILABLE.withDescription("control plane stopped"));
    ScriptedCall second = transport.last();
    assertThat(second).isNotSameAs(call);
    nudgeable.onReconnect = () -> {
      nudgedAtMillis.add(-1L);
      return true;
    };
    second.listener.onConnectionFailure(REFUSED);
    clock.forwardTime(250, TimeUnit.MILLISECONDS);
    assertThat(nudgedAtMillis).hasSize(5);
  }

  @Test
  void aTransportThatCannotReconnectOnRequestIsAskedOnce() {
    newClient(b -> {});
    watchCluster("a");
    ScriptedCall call = transport.last();
    call.listener.onConnectionFailure(REFUSED);
    assertThat(clock.numPendingTasks()).isEqualTo(1);
    clock.forwardTime(1, TimeUnit.SECONDS); // asked: ScriptedTransport says it cannot
    call.listener.onConnectionFailure(REFUSED);
    assertThat(clock.numPendingTasks()).isZero();
  }

  // ---- 4. ACK before watcher callbacks ----

  @Test
  void ackAndNackAreSentBeforeInlineCallbacksRunAndTheNextResponseWaitsForThem() {
    newClient(b -> {});
    AtomicReference<ScriptedCall> current = new AtomicReference<>();
    List<String> seenInCallbacks = new ArrayList<>();
    RecordingWatcher<TestCluster> watcher = new RecordingWatcher<>() {
      @Override
      public void onUpdate(TestCluster value) {
        super.onUpdate(value);
        record("update");
      }

      @Override
      public void onError(Status error) {
        super.onError(error);
        record("error");
      }

      private void record(String what) {
        DiscoveryRequest last = current.get().lastRequest();
        seenInCallbacks.add(what + ": last request " + last.getVersionInfo() + "/" + last.getResponseNonce()
            + (last.hasErrorDetail() ? " NACK" : "") + ", requested " + current.get().requested);
      }
    };
    client.watch(TestTypes.CLUSTER, "a", watcher, Runnable::run); // runs inline, as a channel's context
    current.set(transport.last().ready());
    ScriptedCall call = current.get();

    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", cluster("a")));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2", XdsResources.cluster("a").edsConfigPath("/x").buildAny()));

    assertThat(seenInCallbacks).containsExactly(
        "update: last request 1/n1, requested 1",
        "error: last request 1/n2 NACK, requested 2");
    assertThat(call.requested).isEqualTo(3);
  }

  // ---- 3. close() racing a stream that fails to start ----

  @Test
  void closeRacingAFailedStreamStartStillShutsTheTransportAndTheOwnedScheduler() throws Exception {
    ScheduledThreadPoolExecutor owned = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "owned-timer");
      t.setDaemon(true);
      return t;
    });
    AtomicReference<DefaultXdsClient> self = new AtomicReference<>();
    AtomicReference<Throwable> closeFailure = new AtomicReference<>();
    FailingStartTransport failing = new FailingStartTransport(() -> {
      // Another thread closes the client while this one is starting the stream.
      Thread closer = new Thread(() -> {
        try {
          self.get().close();
        } catch (Throwable t) {
          closeFailure.set(t);
        }
      });
      closer.start();
      try {
        closer.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    DefaultXdsClient c = new DefaultXdsClient(
        List.of(new AdsServer(failing, false)), null, java.util.Map.of(), NODE, Duration.ofSeconds(15), Duration.ZERO,
        false, owned, owned, Clock.systemUTC(), System::nanoTime,
        new Random(1), null, Telemetry.NONE);
    self.set(c);

    c.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), Runnable::run);

    assertThat(closeFailure.get()).isNull();
    assertThat(c.isClosed()).isTrue();
    assertThat(failing.starts).isEqualTo(1);
    assertThat(failing.shutdown).as("transport shut down").isTrue();
    assertThat(owned.awaitTermination(10, TimeUnit.SECONDS)).as("owned scheduler terminated").isTrue();
  }

  /** A transport whose {@code start} runs {@code duringStart} and then throws. */
  private static final class FailingStartTransport implements AdsTransport {
    private final Runnable duringStart;
    volatile int starts;
    volatile boolean shutdown;

    FailingStartTransport(Runnable duringStart) {
      this.duringStart = duringStart;
    }

    @Override
    public Call start(Listener listener) {
      starts++;
      duringStart.run();
      throw new IllegalStateException("cannot start the call");
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public String target() {
      return "failing";
    }
  }

  // ---- 6. NACK size ----

  @Test
  void nackErrorDetailIsCappedAtFourKibibytesOnACharacterBoundaryWithATruncationMarker() {
    newClient(b -> {});
    int count = 300;
    Any[] invalid = new Any[count];
    for (int i = 0; i < count; i++) {
      String name = "cluster-\u00e9\uD83D\uDE00-" + i; // 2- and 4-byte UTF-8 characters
      watchCluster(name);
      invalid[i] = XdsResources.cluster(name).edsConfigPath("/etc/eds.yaml").buildAny();
    }
    ScriptedCall call = transport.last().ready();
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", invalid));

    DiscoveryRequest nack = call.lastRequest();
    assertThat(nack.hasErrorDetail()).isTrue();
    String message = nack.getErrorDetail().getMessage();
    byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
    assertThat(utf8.length).isLessThanOrEqualTo(4096).isGreaterThan(3500);
    // No half character: the text survives a UTF-8 round trip unchanged.
    assertThat(new String(utf8, StandardCharsets.UTF_8)).isEqualTo(message);
    assertThat(message).startsWith("cluster \"cluster-\u00e9\uD83D\uDE00-0\"");
    assertThat(message).containsPattern("truncated \\d+ bytes\\]$");
  }
}
