package io.jxds.examples;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A script of control-plane (and backend) changes, each announced, applied, and then verified
 * over a measurement window of live traffic. A step that does not show its effect in its first
 * window is measured again (convergence can take a moment on a loaded machine), up to {@link
 * Timing#attempts()} windows; after that it fails.
 */
final class DemoScript {
  /** Something a step does: a control-plane push, stopping backends, ... */
  interface Action {
    void run() throws Exception;
  }

  /**
   * One step.
   *
   * @param title a few words, shown in the summary
   * @param announcement what is about to change and what should happen, shown when it starts
   */
  record Step(String title, String announcement, Action action, Expect expect) {}

  /**
   * How long each step waits after its action before measuring, and how long it measures.
   *
   * @param attempts how many windows a step may take to show its effect
   */
  record Timing(Duration settle, Duration window, int attempts) {
    /** Spreads {@code total} over {@code steps} steps: 40 % settling (at most 1.5 s), the rest measuring. */
    static Timing spread(Duration total, int steps) {
      long perStep = total.toMillis() / steps;
      long settle = Math.min(1500, perStep * 2 / 5);
      return new Timing(Duration.ofMillis(settle), Duration.ofMillis(perStep - settle), 3);
    }
  }

  /**
   * A step's outcome.
   *
   * @param measured what the last window showed
   * @param problems why it failed; empty when it passed
   */
  record StepResult(int number, String title, boolean passed, String measured, List<String> problems) {}

  /** The whole script's outcome. */
  record Result(List<StepResult> steps, Duration elapsed) {
    boolean passed() {
      return !steps.isEmpty() && steps.stream().allMatch(StepResult::passed);
    }
  }

  private final List<Step> steps;
  private final TrafficStats stats;
  private final Supplier<Topology> topology;
  private final Timing timing;
  private final PrintStream out;
  private final AtomicReference<String> currentStep;

  /**
   * @param currentStep set to the running step's number, for the live table
   */
  DemoScript(List<Step> steps, TrafficStats stats, Supplier<Topology> topology, Timing timing, PrintStream out,
      AtomicReference<String> currentStep) {
    this.steps = List.copyOf(steps);
    this.stats = stats;
    this.topology = topology;
    this.timing = timing;
    this.out = out;
    this.currentStep = currentStep;
  }

  /** How many steps {@link #standard} has. */
  static final int STANDARD_STEPS = 15;

  /**
   * The demo's fifteen steps against the embedded control plane: eight on one cluster's endpoints,
   * two routing steps (a canary split and a header route, through RDS), then five on misbehaving
   * backends and users ({@link ResilienceSteps}).
   *
   * @param timing the script's timing (the outlier ejection lasts a few of its windows)
   * @param resetBackoff called after the backends restart: the channel's {@code resetConnectBackoff}
   * @param show sets the topology the table and the checks read (the routing steps show the canary)
   */
  static List<Step> standard(DemoControlPlane cp, DemoBackends backends, Timing timing, Runnable resetBackoff,
      Consumer<Topology> show) {
    List<String> priority0 = DemoControlPlane.LAYOUT.stream().filter(l -> l.priority() == 0)
        .flatMap(l -> l.backends().stream()).toList();
    String cluster = cp.cluster();
    List<Step> steps = new ArrayList<>();
    steps.add(new Step("equal weights",
        "cluster " + cluster + ": 3 localities at priority 0 with weight 1 each, 2 endpoints each;"
            + " zone-d is priority 1 (standby). Expect 33/33/33, nothing to zone-d.",
        () -> {},
        Expect.that().locality("zone-a", 100 / 3.0).locality("zone-b", 100 / 3.0).locality("zone-c", 100 / 3.0)
            .endpoint("a1", 100 / 6.0).endpoint("c2", 100 / 6.0).onlyPriority(0).noFailures().drops(0)));
    steps.add(new Step("locality weights 1:1:2",
        "EDS: locality weights a:b:c = 1:1:2. Expect 25/25/50, on the same connections.",
        () -> cp.setLocalityWeights(Map.of("zone-c", 2L)),
        Expect.that().locality("zone-a", 25).locality("zone-b", 25).locality("zone-c", 50)
            .onlyPriority(0).noFailures().drops(0)));
    steps.add(new Step("endpoint c1 weight 3",
        "EDS: endpoint c1 gets load_balancing_weight 3 (c2 keeps 1). Expect c1 37.5, c2 12.5.",
        () -> cp.setEndpointWeight("c1", 3),
        Expect.that().locality("zone-c", 50).endpoint("c1", 37.5).endpoint("c2", 12.5)
            .locality("zone-a", 25).onlyPriority(0).noFailures().drops(0)));
    steps.add(new Step("10% drops",
        "EDS: drop_overloads category throttle at 10%. Expect 10% of RPCs dropped (UNAVAILABLE),"
            + " shares of the rest unchanged.",
        () -> cp.setDropPercent(10),
        Expect.that().drops(10).locality("zone-a", 25).locality("zone-c", 50).endpoint("c1", 37.5)
            .onlyPriority(0).noFailures()));
    steps.add(new Step("priority 0 down: failover",
        "stopping all 6 priority-0 backends. Expect every RPC on zone-d (priority 1), a blip of"
            + " failures for RPCs in flight, then none.",
        () -> backends.stop(priority0),
        Expect.that().onlyPriority(1).locality("zone-d", 100).endpoint("d1", 50).endpoint("d2", 50)
            .noFailures().drops(10)));
    steps.add(new Step("priority 0 back: failback",
        "restarting the priority-0 backends (and resetting the channel's reconnect backoff)."
            + " Expect traffic back on priority 0, 25/25/50.",
        () -> {
          backends.restart(priority0);
          resetBackoff.run();
        },
        Expect.that().onlyPriority(0).locality("zone-a", 25).locality("zone-c", 50).endpoint("c1", 37.5)
            .noFailures().drops(10)));
    steps.add(new Step("cluster removed",
        "CDS: cluster " + cluster + " deleted. Expect every RPC to fail at once with a clear"
            + " UNAVAILABLE naming the cluster.",
        cp::removeCluster,
        Expect.that().allFailWith("cluster " + cluster + " does not exist")));
    steps.add(new Step("cluster restored",
        "CDS: cluster " + cluster + " back. Expect the last routing again: 25/25/50, 10% drops.",
        cp::restoreCluster,
        Expect.that().onlyPriority(0).locality("zone-a", 25).locality("zone-c", 50).endpoint("c1", 37.5)
            .noFailures().drops(10)));
    String canary = DemoControlPlane.CANARY_LABEL;
    steps.add(new Step("canary split 90/10",
        "RDS: the route now splits 90/10 between clusters " + cluster + " and " + cp.canaryCluster()
            + " (2 backends; the table shows it in place of zone-d); EDS drops lifted. Expect " + canary
            + " 10, and 1:1:2 in the other 90: 22.5/22.5/45.",
        () -> {
          cp.setDropPercent(0);
          cp.setCanaryPercent(10);
          show.accept(cp.routingTopology());
        },
        Expect.that().locality(canary, 10).locality("zone-a", 22.5).locality("zone-b", 22.5)
            .locality("zone-c", 45).noFailures().drops(0)));
    steps.add(new Step("header route to the canary",
        "RDS: a route ahead of the split sends calls with header " + DemoControlPlane.CANARY_HEADER + ": "
            + DemoControlPlane.CANARY_HEADER_VALUE + " to " + cp.canaryCluster() + "; one worker in "
            + EmbeddedDemo.WORKERS + " sends it. Expect all of its calls on " + canary
            + ", the others still 90/10 (" + canary + " about 21 in the table).",
        cp::addHeaderRoute,
        Expect.that().taggedOnly(canary).untaggedLocality(canary, 10).untaggedLocality("zone-c", 45)
            .noFailures().drops(0)));
    steps.addAll(ResilienceSteps.steps(cp, backends, timing));
    return steps;
  }

  /** Runs every step in order, announcing and verifying each. */
  Result run() throws Exception {
    long start = System.nanoTime();
    List<StepResult> results = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      int number = i + 1;
      currentStep.set(Integer.toString(number));
      print(String.format("==> step %d/%d: %s", number, steps.size(), step.title()));
      print("    " + step.announcement());
      step.action().run();
      Thread.sleep(timing.settle().toMillis());
      Shares shares = null;
      List<String> problems = List.of();
      for (int attempt = 0; attempt < timing.attempts(); attempt++) {
        TrafficStats.Snapshot before = stats.snapshot();
        Thread.sleep(timing.window().toMillis());
        shares = new Shares(topology.get(), stats.snapshot().since(before));
        problems = step.expect().problems(shares, stats);
        if (problems.isEmpty()) {
          break;
        }
      }
      String measured = shares.describe();
      if (step.expect().taggedLabel() != null) {
        measured += "; " + shares.describeTagged(step.expect().taggedLabel());
      }
      for (String note : step.expect().notes(shares)) {
        measured += "; " + note;
      }
      if (shares.window().failed() > 0 && stats.lastFailure() != null) {
        measured += "; RPCs saw " + Expect.describe(stats.lastFailure());
      }
      StepResult result = new StepResult(number, step.title(), problems.isEmpty(), measured, problems);
      results.add(result);
      print("    " + (result.passed() ? "PASS: " + result.measured() : "FAIL: " + String.join("; ", problems)));
    }
    currentStep.set("");
    return new Result(results, Duration.ofNanos(System.nanoTime() - start));
  }

  private void print(String text) {
    synchronized (out) { // the live table prints from its own thread
      wrap(text, TableRenderer.WIDTH - 1).forEach(out::println);
    }
  }

  /** Splits {@code text} at spaces into lines of at most {@code width}, continuing with its indent. */
  static List<String> wrap(String text, int width) {
    String indent = text.substring(0, text.length() - text.stripLeading().length()) + "  ";
    List<String> lines = new ArrayList<>();
    String rest = text;
    while (rest.length() > width) {
      int cut = rest.lastIndexOf(' ', width);
      if (cut <= indent.length()) {
        cut = width;
      }
      lines.add(rest.substring(0, cut).stripTrailing());
      rest = indent + rest.substring(cut).strip();
    }
    lines.add(rest);
    return lines;
  }

  /** The summary printed at the end. */
  static List<String> summary(Result result) {
    List<String> lines = new ArrayList<>();
    long passed = result.steps().stream().filter(StepResult::passed).count();
    lines.add(String.format("summary: %d/%d steps showed their expected effect (%d s)",
        passed, result.steps().size(), result.elapsed().toSeconds()));
    for (StepResult s : result.steps()) {
      String line = String.format("  %s %d %s", s.passed() ? "PASS" : "FAIL", s.number(), s.title());
      lines.addAll(wrap(s.passed() ? line : line + ": " + String.join("; ", s.problems()), TableRenderer.WIDTH - 1));
    }
    lines.add(result.passed() ? "demo OK" : "demo FAILED: some steps did not show their effect");
    return lines;
  }
}
