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
  void timingSpreadsTheDurationOverTheSteps() {
    assertThat(DemoScript.Timing.spread(Duration.ofSeconds(34), 8))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(1500), Duration.ofMillis(2750), 3));
    assertThat(DemoScript.Timing.spread(Duration.ofSeconds(16), 8))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(800), Duration.ofMillis(1200), 3));
    // The default: ten steps in 35 s.
    assertThat(DemoScript.Timing.spread(DemoOptions.DEFAULT_DURATION, 10))
        .isEqualTo(new DemoScript.Timing(Duration.ofMillis(1400), Duration.ofMillis(2100), 3));
  }
}
