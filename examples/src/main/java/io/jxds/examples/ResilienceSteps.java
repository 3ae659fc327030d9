package io.jxds.examples;

import io.jxds.examples.DemoBackends.Health;
import java.time.Duration;
import java.util.List;

/**
 * The demo's last five steps, on what a route and a cluster do with misbehaving backends and with
 * users: a flaky backend's errors (gRFC A44 retries hide them), a sick backend ejected by outlier
 * detection and back once it heals (gRFC A50), and calls kept on one backend per user by a header
 * hash policy over ring hash (gRFC A42). They follow the routing steps: the route to the cluster
 * still splits 90/10 with the canary, and one worker in {@value EmbeddedDemo#WORKERS} goes to the
 * canary by its header.
 */
final class ResilienceSteps {
  /** The backend that turns flaky, then sick, then heals: zone-c's lighter endpoint. */
  static final String TROUBLED = "c2";
  /** Outlier detection's sweep interval: the sick backend is out within three of them. */
  static final Duration INTERVAL = Duration.ofMillis(200);
  /**
   * Share of all RPCs that reach {@link #TROUBLED}: seven workers in eight take the split, 90 % of
   * theirs go to the cluster, zone-c takes half of those (weights 1:1:2) and c2 a quarter of zone-c's
   * (c1 weighs 3): 7/8 × 0.9 × 0.5 × 0.25.
   */
  static final double TROUBLED_SHARE = 7.0 / 8 * 0.9 * 0.5 * 0.25 * 100;

  /** Zone-c's share of all answered RPCs (the canary's included): 7/8 × 0.9 × 0.5. */
  static final double ZONE_C_SHARE = 7.0 / 8 * 0.9 * 0.5 * 100;

  private ResilienceSteps() {}

  /**
   * The steps. The sick backend's ejection lasts a settle and three windows of {@code timing}: as
   * long as the ejection step can take (so it never sees the backend return while still sick), and
   * short enough for the next step to see it back by its third window (it is ejected at the latest
   * a window before that step starts).
   */
  static List<DemoScript.Step> steps(DemoControlPlane cp, DemoBackends backends, DemoScript.Timing timing) {
    String cluster = cp.cluster();
    Duration ejection = timing.settle().plus(timing.window().multipliedBy(3));
    String ejectionText = String.format("%.1f s", ejection.toMillis() / 1000.0);
    return List.of(
        new DemoScript.Step("flaky backend",
            "backend " + TROUBLED + " fails every other RPC with UNAVAILABLE (it gets "
                + String.format("%.1f", TROUBLED_SHARE) + "% of the RPCs). Expect about "
                + String.format("%.1f", TROUBLED_SHARE / 2) + "% of RPCs to fail.",
            () -> backends.setHealth(TROUBLED, Health.FLAKY),
            Expect.that().failures(TROUBLED_SHARE / 2, TROUBLED + " is flaky").answers(TROUBLED).drops(0)),
        new DemoScript.Step("retry policy hides it",
            "RDS: the route to " + cluster + " gets a retry_policy: retry_on unavailable, num_retries "
                + DemoControlPlane.RETRIES + ". Expect no failed RPC at all, " + TROUBLED + " still answering"
                + " half of its calls.",
            () -> cp.setRetries(true),
            Expect.that().noFailures().answers(TROUBLED).drops(0)),
        new DemoScript.Step("sick backend ejected",
            TROUBLED + " now fails every RPC (it still accepts connections). RDS: retries lifted, so its"
                + " failures would show. CDS: outlier_detection on " + cluster + " (failure percentage over 50%,"
                + " swept every " + INTERVAL.toMillis() + " ms, ejection " + ejectionText + "). Expect " + TROUBLED
                + " ejected within 3 sweeps: no failures, nothing answered by " + TROUBLED + ", c1 taking all of"
                + " zone-c.",
            () -> {
              backends.setHealth(TROUBLED, Health.SICK);
              cp.setRetries(false);
              cp.setOutlierDetection(INTERVAL, ejection);
            },
            Expect.that().noFailures().silent(TROUBLED).locality("zone-c", ZONE_C_SHARE).endpoint("c1", ZONE_C_SHARE)
                .drops(0)),
        new DemoScript.Step("healed backend back",
            TROUBLED + " answers again. Expect it back once its ejection (" + ejectionText + ") ends: "
                + TROUBLED + " answering, no failures.",
            () -> backends.setHealth(TROUBLED, Health.GOOD),
            Expect.that().answers(TROUBLED).noFailures().drops(0)),
        new DemoScript.Step("sticky by user",
            "CDS: both clusters balance by RING_HASH; RDS: both routes get a hash_policy on header "
                + TrafficGenerator.USER_HEADER + ", the split is lifted (all to " + cluster + ", the header"
                + " route still to the canary). Each of the " + EmbeddedDemo.WORKERS + " workers is one user."
                + " Expect each user's calls on one backend.",
            cp::stickyByUser,
            Expect.that().stickyUsers(EmbeddedDemo.WORKERS).noFailures().drops(0)));
  }
}
