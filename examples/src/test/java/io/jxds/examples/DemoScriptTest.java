package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The script runner: a step whose effect does not show fails the run (the demo's exit code 1). */
class DemoScriptTest {
  private static final Topology TOPOLOGY = new Topology(List.of(
      new LocalityInfo("zone-a", 0, List.of(new EndpointInfo("a1", "h:1"))),
      new LocalityInfo("zone-b", 0, List.of(new EndpointInfo("b1", "h:2")))));

  @Test
  void stepWithoutItsEffectFailsTheRunAfterItsAttempts() throws Exception {
    TrafficStats stats = new TrafficStats();
    Thread traffic = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        stats.answered("h:1"); // everything goes to zone-a
        Thread.onSpinWait();
      }
    });
    traffic.setDaemon(true);
    traffic.start();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> actions = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<DemoScript.Step> steps = List.of(
        new DemoScript.Step("all on a", "expect zone-a", () -> actions.add("one"),
            Expect.that().locality("zone-a", 100).noFailures().drops(0)),
        new DemoScript.Step("all on b", "expect zone-b", () -> actions.add("two"),
            Expect.that().locality("zone-b", 100)));
    DemoScript script = new DemoScript(steps, stats, () -> TOPOLOGY,
        new DemoScript.Timing(Duration.ofMillis(10), Duration.ofMillis(30), 2),
        new PrintStream(bytes, true, StandardCharsets.UTF_8), new AtomicReference<>(""));

    DemoScript.Result result;
    try {
      result = script.run();
    } finally {
      traffic.interrupt();
    }

    assertThat(actions).containsExactly("one", "two");
    assertThat(result.passed()).isFalse();
    assertThat(result.steps()).extracting(DemoScript.StepResult::passed).containsExactly(true, false);
    assertThat(result.steps().get(1).problems()).containsExactly("zone-b 0.0%, expected 100.0% +/- 5");
    assertThat(DemoScript.summary(result)).contains("  PASS 1 all on a")
        .contains("  FAIL 2 all on b: zone-b 0.0%, expected 100.0% +/- 5")
        .endsWith("demo FAILED: some steps did not show their effect");
  }

  @Test
  void headerChecksLookAtTheCallsWithAndWithoutTheHeaderApart() {
    TrafficStats stats = new TrafficStats();
    // With the header: 20 calls, 15 to zone-b. Without: 80, 8 to zone-b (10 %).
    for (int i = 0; i < 100; i++) {
      boolean tagged = i < 20;
      boolean toB = tagged ? i < 15 : i < 28;
      stats.answered(toB ? "h:2" : "h:1", tagged);
    }
    TrafficStats.Window all = stats.snapshot().since(new TrafficStats().snapshot());
    Shares shares = new Shares(TOPOLOGY, all);
    Expect expect = Expect.that().taggedOnly("zone-b").untaggedLocality("zone-b", 10);

    assertThat(all.taggedTotal()).isEqualTo(20);
    assertThat(shares.locality("zone-b")).isEqualTo(23.0);
    assertThat(expect.problems(shares, stats)).containsExactly("RPCs with the header: zone-b 75.0%, expected 100%");
    assertThat(Expect.that().untaggedLocality("zone-b", 30).problems(shares, stats))
        .containsExactly("RPCs without the header: zone-b 10.0%, expected 30.0% +/- 5");
    assertThat(shares.describeTagged("zone-b")).isEqualTo("zone-b took 75% of 20 RPCs with the header, 10% of those"
        + " without");

    TrafficStats untagged = new TrafficStats();
    untagged.answered("h:2");
    assertThat(Expect.that().taggedOnly("zone-b").problems(new Shares(TOPOLOGY,
        untagged.snapshot().since(new TrafficStats().snapshot())), untagged))
        .containsExactly("no RPC with the header was answered");
  }

  @Test
  void failureSilenceAndStickinessChecksFailWhenTheEffectIsMissing() {
    TrafficStats stats = new TrafficStats();
    // 90 answered (a1 60, b1 30), 10 failed naming b1: 10 % failures.
    for (int i = 0; i < 90; i++) {
      stats.answered(i < 60 ? "h:1" : "h:2", false, i % 2 == 0 ? "user-0" : "user-1");
    }
    for (int i = 0; i < 10; i++) {
      stats.failed(io.grpc.Status.UNAVAILABLE.withDescription("b1 is flaky"));
    }
    Shares shares = new Shares(TOPOLOGY, stats.snapshot().since(new TrafficStats().snapshot()));

    assertThat(Expect.that().failures(10, "b1 is flaky").answers("b1").problems(shares, stats)).isEmpty();
    assertThat(Expect.that().failures(4.9, "b1 is flaky").problems(shares, stats))
        .containsExactly("failures 10.0%, expected 4.9% +/- 3");
    assertThat(Expect.that().failures(10, "b1 is sick").problems(shares, stats))
        .containsExactly("expected failures naming \"b1 is sick\", last: UNAVAILABLE: b1 is flaky");
    assertThat(Expect.that().silent("b1").problems(shares, stats))
        .containsExactly("b1 answered 30 RPCs (33.3%), expected none");
    // user-0 and user-1 both met a1 and b1: not sticky.
    assertThat(Expect.that().stickyUsers(2).problems(shares, stats))
        .containsExactly("the calls of user-0 landed on 2 backends: {a1=30, b1=15}");

    TrafficStats sticky = new TrafficStats();
    sticky.answered("h:1", false, "user-0");
    sticky.answered("h:1", false, "user-0");
    sticky.answered("h:2", false, "user-1");
    Shares stuck = new Shares(TOPOLOGY, sticky.snapshot().since(new TrafficStats().snapshot()));
    Expect two = Expect.that().stickyUsers(2);
    assertThat(two.problems(stuck, sticky)).isEmpty();
    assertThat(two.notes(stuck)).containsExactly("user-0 on a1, user-1 on b1");
    assertThat(Expect.that().stickyUsers(3).problems(stuck, sticky)).containsExactly("2 users answered, expected 3");
    assertThat(Expect.that().silent("b1").answers("a1").problems(stuck, sticky))
        .containsExactly("b1 answered 1 RPCs (33.3%), expected none");

    TrafficStats oneBackend = new TrafficStats();
    oneBackend.answered("h:1", false, "user-0");
    oneBackend.answered("h:1", false, "user-1");
    assertThat(Expect.that().stickyUsers(2).answers("b1").problems(new Shares(TOPOLOGY,
        oneBackend.snapshot().since(new TrafficStats().snapshot())), oneBackend))
        .containsExactly("every user on the same backend {a1=1}", "b1 answered no RPC, expected some");
  }

  @Test
  void timingSpreadsTheDurationOverTheSteps() {
    assertThat(DemoScript.Timing.spread(Duration.ofSeconds(34), 8))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(1500), Duration.ofMillis(2750), 3));
    assertThat(DemoScript.Timing.spread(Duration.ofSeconds(16), 8))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(800), Duration.ofMillis(1200), 3));
    // The default: fifteen steps in 35 s.
    assertThat(DemoScript.Timing.spread(DemoOptions.DEFAULT_DURATION, DemoScript.STANDARD_STEPS))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(933), Duration.ofMillis(1400), 3));
  }
}
