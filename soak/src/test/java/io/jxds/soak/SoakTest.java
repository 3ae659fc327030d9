package io.jxds.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A randomized soak of jxds against real control planes, all on 127.0.0.1 in one JVM: 24 gRPC
 * backends, 6 clusters, 2 listeners ({@code svc0} with its routes over RDS, {@code svc1} inline;
 * see {@link RouteModel}), up to 9 channels on {@code xds-cluster:///CLUSTER} or {@code
 * xds:///LISTENER} under a steady load (about 200 RPC/s each, 5 s deadline; an {@code xds:///}
 * channel's RPCs carry a lane header), and a seeded sequence of operations: endpoints added,
 * removed, re-weighted and marked unhealthy; locality weights; priorities renumbered; localities
 * moved between priorities (also the same zone at two priorities); drops; clusters deleted and
 * re-added; the control plane stopped for 0–5 s (while channels open, close and idle, and the
 * config changes) and restarted on the same port; backends killed and restarted on the same port;
 * channels opened, closed and sent idle; streams broken; the server closing each stream after a
 * response; routes changed (weights, clusters joining and leaving a route, the lane route's path
 * prefix and header matcher, {@code invert_match} included) and listeners deleted and restored;
 * route timeouts, retry policies (route and virtual host) and hash policies; clusters switched
 * between ROUND_ROBIN and RING_HASH; backends sick for 2-4 s (accepting connections, failing every
 * RPC) under outlier detection on every EDS cluster; a LOGICAL_DNS cluster whose name and backend
 * change; and, with FakeAdsServer only, responses held and invalid resources sent.
 *
 * <p>After every operation, within a bounded wait (15 s; 30 s after a control-plane start, which
 * covers reconnect backoff and a deletion postponed to the 15 s does-not-exist timer; 20 s after a
 * recycle window), all of these must hold, else the run fails printing the seed, the operation
 * number and the operation trace:
 *
 * <ul>
 *   <li><b>Routing</b>: each channel's RPCs go only to endpoints its cluster lists as HEALTHY or
 *       UNKNOWN in the best available priority (the lowest-numbered one with a live backend, the
 *       soak knowing which it killed), with each backend's share within 6 points of locality
 *       weight × endpoint weight normalized over 200 RPCs (see {@link SoakRun#SHARE_BOUND}), and
 *       the dropped share within 5 binomial σ + 1 point of the drop categories' combined rate.
 *       While the control plane is down, "lists" means what it served last.
 *   <li><b>Failures</b>: an RPC on a channel whose cluster should route never fails, except inside
 *       a grace window around an operation about that cluster (its config, a backend it lists, a
 *       channel on it; a control-plane start for the clusters whose config changed during the
 *       outage) lasting until a second after convergence; and while the initial channels open
 *       (JVM warm-up on a busy machine). A control-plane restart opens no window
 *       for clusters the client has cached: they must keep routing. The one place a client cannot
 *       route is a channel opened during an outage on a cluster it has never cached: its RPCs may
 *       wait or fail until the control plane is back, and it must converge then.
 *   <li><b>Routes</b> ({@code xds:///} channels, {@link RoutedJudge}): each RPC takes the route its
 *       path and lane header match (gRFC A28, first match wins), then a cluster drawn by weight, and
 *       fits that cluster's expectation above; each backend's share is within 5 σ of the weighted
 *       draws (and drops) plus 3 points of its expected share over 300 RPCs. A route change opens no
 *       grace window: an RPC that fails while routes change breaks the run, unless it fails as a
 *       cluster of the listener's routes fails every call (deleted, no usable endpoint, all
 *       down). A deleted listener fails every RPC UNAVAILABLE with "listener NAME does not exist";
 *       restored, its channels route again. In java-control-plane mode only a listener no channel
 *       uses is deleted (SimpleCache withholds a response missing a watched name), and no cluster
 *       a route names is.
 *   <li><b>Retries</b> (gRFC A44): while a backend is killed, a call on an {@code xds:///} channel
 *       whose route retries at least twice and whose clusters keep a live usable endpoint never
 *       fails: the kill's grace window does not excuse it.
 *   <li><b>Hash policies</b> (gRFC A42): on a route hashing on the channel's user header over one
 *       RING_HASH cluster, every call of the channel lands on one endpoint, the same one while the
 *       cluster's endpoints and their liveness are unchanged ({@link RoutedJudge}). A RING_HASH
 *       cluster's RPCs are judged by their endpoints, not their shares.
 *   <li><b>Aggregate cluster</b> (gRFC A37/A75, {@link SoakModel#expectation}): the RPCs of a
 *       channel on {@code agg0}, whose leaves are reordered, added and removed, marked unhealthy and
 *       killed, go to the first leaf with a live usable endpoint as that leaf alone would route
 *       them; its failures are excused by the grace windows of the aggregate and of its leaves.
 *   <li><b>Outlier detection</b> (gRFC A50): no RPC starts on a sick backend later than three
 *       outlier-detection intervals (+0.5 s) after it turned sick ({@link Ejections}); healed, it
 *       takes its share again within the converge bound.
 *   <li><b>Deletion</b>: FakeAdsServer mode deletes clusters that channels use; their RPCs must fail
 *       UNAVAILABLE with "cluster NAME does not exist", and the client's status must say
 *       DOES_NOT_EXIST. java-control-plane never reports the removal of a name a client still
 *       subscribes to (SimpleCache withholds the whole CDS response), so in JCP mode only clusters
 *       no channel uses are deleted; what the client promises there is that a name nobody
 *       watches leaves the wire at once, so that the other clusters keep getting updates, and
 *       that a re-added cluster routes again when a channel opens on it.
 *   <li><b>Status</b>: for every cluster with a channel (or named by the routes of a channel's
 *       listener), the shared client's {@code status()} holds
 *       the Cluster and its ClusterLoadAssignment at the control plane's current version, ACKED
 *       (NACKED only after the soak sent an invalid one at that version), and it is connected; for
 *       every listener with a channel, the Listener (DOES_NOT_EXIST once deleted) and its
 *       RouteConfiguration likewise.
 *   <li><b>Streams</b>: exactly one ADS stream open to the control plane (all channels share one
 *       client); at most one stream opened by an ordinary operation, three by a break or a start,
 *       and no reconnect storm (at most 2 per second + 3) while the server closes each stream
 *       after a response.
 *   <li><b>Growth</b>: thread count, median of the last quarter of the run at most 10 % (+2)
 *       above the first quarter's; heap used after System.gc() likewise (+2 MB), asserted only in
 *       runs of 5 minutes or more (reported always).
 * </ul>
 *
 * <p>Each mode runs with the client speaking state of the world or delta xDS. CI runs the four
 * bounded tests below (fixed seeds, about 30 s each). The long run (see docs/soak.md) is
 * {@link #configuredRun()}, enabled by {@code -Djxds.soak.duration}.
 */
class SoakTest {
  private static final Duration CI_DURATION = Duration.ofSeconds(30);

  @Test
  @Timeout(180)
  @DisabledIfSystemProperty(named = "jxds.soak.duration", matches = ".+")
  void fakeAdsServerBounded() throws Exception {
    run(new SoakConfig(SoakConfig.Mode.FAKE, 11, CI_DURATION, Integer.MAX_VALUE,
        Set.of(), false, false));
  }

  @Test
  @Timeout(180)
  @DisabledIfSystemProperty(named = "jxds.soak.duration", matches = ".+")
  void fakeAdsServerDeltaBounded() throws Exception {
    run(new SoakConfig(SoakConfig.Mode.FAKE, 13, CI_DURATION, Integer.MAX_VALUE,
        Set.of(), false, true));
  }

  @Test
  @Timeout(180)
  @DisabledIfSystemProperty(named = "jxds.soak.duration", matches = ".+")
  void javaControlPlaneBounded() throws Exception {
    run(new SoakConfig(SoakConfig.Mode.JCP, 12, CI_DURATION, Integer.MAX_VALUE,
        Set.of(), false, false));
  }

  @Test
  @Timeout(180)
  @DisabledIfSystemProperty(named = "jxds.soak.duration", matches = ".+")
  void javaControlPlaneDeltaBounded() throws Exception {
    run(new SoakConfig(SoakConfig.Mode.JCP, 14, CI_DURATION, Integer.MAX_VALUE,
        Set.of(), false, true));
  }

  /**
   * {@code -Djxds.soak.duration=30m} (required), {@code -Djxds.soak.mode=jcp|fake|both} (default
   * both, one after the other), {@code -Djxds.soak.seed=42} (default 1; a list {@code 2026,2027} or
   * a range {@code 2026-2030} runs every seed, see {@link SoakConfig#parseSeeds}),
   * {@code -Djxds.soak.ops=N} (stop after N operations), {@code -Djxds.soak.skip=kind,kind}
   * (operation kinds to leave out), {@code -Djxds.soak.protocol=sotw|delta|both} (the wire protocol;
   * default sotw).
   *
   * <p>With several runs (seeds × modes × protocols), a failed run does not stop the others: each
   * run's outcome is printed as it ends, a summary of all of them at the end, and the test fails if
   * any run failed, naming each failed run's replay command.
   */
  @Test
  @EnabledIfSystemProperty(named = "jxds.soak.duration", matches = ".+")
  void configuredRun() throws Exception {
    Duration duration = SoakConfig.parseDuration(System.getProperty("jxds.soak.duration"));
    String mode = System.getProperty("jxds.soak.mode", "both").toLowerCase(Locale.ROOT);
    List<Long> seeds = SoakConfig.parseSeeds(System.getProperty("jxds.soak.seed", "1"));
    int ops = Integer.parseInt(System.getProperty("jxds.soak.ops", Integer.toString(Integer.MAX_VALUE)));
    Set<String> skip = SoakConfig.parseSkip(System.getProperty("jxds.soak.skip"));
    boolean assertHeap = duration.compareTo(Duration.ofMinutes(5)) >= 0;
    List<SoakConfig.Mode> modes = new ArrayList<>();
    if (mode.equals("both") || mode.equals("fake")) {
      modes.add(SoakConfig.Mode.FAKE);
    }
    if (mode.equals("both") || mode.equals("jcp")) {
      modes.add(SoakConfig.Mode.JCP);
    }
    assertThat(modes).as("jxds.soak.mode must be jcp, fake or both").isNotEmpty();
    String protocol = System.getProperty("jxds.soak.protocol", "sotw").toLowerCase(Locale.ROOT);
    List<Boolean> deltas = switch (protocol) {
      case "sotw" -> List.of(false);
      case "delta" -> List.of(true);
      case "both" -> List.of(false, true);
      default -> throw new IllegalArgumentException("jxds.soak.protocol must be sotw, delta or both: " + protocol);
    };
    List<SoakConfig> runs = new ArrayList<>();
    for (long seed : seeds) {
      for (SoakConfig.Mode m : modes) {
        for (boolean delta : deltas) {
          runs.add(new SoakConfig(m, seed, duration, ops, skip, assertHeap, delta));
        }
      }
    }
    if (runs.size() == 1) {
      run(runs.get(0));
      return;
    }
    List<String> failed = new ArrayList<>();
    StringBuilder summary = new StringBuilder("soak summary: " + runs.size() + " runs\n");
    for (SoakConfig config : runs) {
      String outcome;
      try {
        run(config);
        outcome = "PASS";
      } catch (Exception | AssertionError e) {
        outcome = "FAIL " + firstLine(e);
        failed.add(config.replayCommand(Integer.MAX_VALUE) + "\n    " + firstLine(e));
      }
      String line = String.format(Locale.ROOT, "  %-4s %-5s seed %-6d %s",
          config.mode().name().toLowerCase(Locale.ROOT), config.delta() ? "delta" : "sotw", config.seed(), outcome);
      System.out.println("[soak] " + line.trim());
      summary.append(line).append('\n');
    }
    System.out.print(summary);
    assertThat(failed).as("failed soak runs (replay each with its command)").isEmpty();
  }

  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return e.getClass().getSimpleName() + ": " + (newline < 0 ? message : message.substring(0, newline));
  }

  private static void run(SoakConfig config) throws Exception {
    SoakReport report;
    try (SoakRun run = new SoakRun(config)) {
      report = run.run();
    }
    // The run checks its invariants as it goes; these only guard against a vacuous run.
    assertThat(report.ops).as("operations").isGreaterThanOrEqualTo(Math.min(SoakRun.MIN_OPS, config.maxOps()));
    assertThat(report.succeeded.sum()).as("RPCs that reached a backend").isGreaterThan(1_000);
  }
}
