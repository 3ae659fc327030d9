package io.jxds.balancer.internal.outlier;

import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One sweep of gRFC A50's timer over a cluster's endpoints ("Outlier Detection Behavior", steps
 * 2 to 5), on the SynchronizationContext:
 *
 * <ol>
 *   <li>every endpoint's counts of the interval are taken and its counter zeroed;
 *   <li><b>success rate</b>: among endpoints with at least {@code request_volume} calls, if there
 *       are at least {@code minimum_hosts}, an endpoint whose success fraction is below
 *       {@code mean - stdev * stdev_factor / 1000} (population standard deviation) is ejected with
 *       probability {@code enforcement_percentage}%. Worked number: fractions 1, 1, 1, 1, 0 give
 *       mean 0.8 and stdev 0.4; with factor 1900 the threshold is 0.8 - 0.76 = 0.04, so the
 *       endpoint at 0 goes;
 *   <li><b>failure percentage</b>: if the cluster has at least {@code minimum_hosts} endpoints,
 *       an endpoint with at least {@code request_volume} calls whose failures are more than
 *       {@code threshold} percent of them (strictly, as A50's algorithm says) is ejected with
 *       probability {@code enforcement_percentage}%;
 *   <li>an endpoint not ejected has its multiplier decreased by one (not below 0); an ejected one
 *       returns once more than {@code min(base_ejection_time * multiplier,
 *       max(base_ejection_time, max_ejection_time))} has passed since its ejection.
 * </ol>
 *
 * <p>The cap: an ejection happens only while it leaves at most {@code max_ejection_percent} of the
 * cluster's endpoints ejected, except that one endpoint may always be ejected when none is (A50's
 * config comment: "will eject at least one address regardless of the value"; Envoy's rule). So
 * with 10 % of 10 endpoints, one; with 0 %, one; with 25 % of 10, two.
 */
final class EjectionSweep {
  /** Hears what the sweep decides, in order. */
  interface Decisions {
    void ejected(EndpointTracker endpoint, String why);

    void returned(EndpointTracker endpoint);
  }

  private EjectionSweep() {}

  static void run(
      Collection<EndpointTracker> endpoints, OutlierDetection config, long now, RandomGenerator random,
      Decisions decisions) {
    int ejected = 0;
    for (EndpointTracker e : endpoints) {
      e.swapCounts();
      if (e.ejected) {
        ejected++;
      }
    }
    Cap cap = new Cap(endpoints.size(), config.maxEjectionPercent(), ejected);
    if (config.successRate().isPresent()) {
      successRate(endpoints, config.successRate().get(), cap, now, random, decisions);
    }
    if (config.failurePercentage().isPresent()) {
      failurePercentage(endpoints, config.failurePercentage().get(), cap, now, random, decisions);
    }
    long longest = saturatedNanos(config.baseEjectionTime().compareTo(config.maxEjectionTime()) >= 0
        ? config.baseEjectionTime() : config.maxEjectionTime());
    long base = saturatedNanos(config.baseEjectionTime());
    for (EndpointTracker e : endpoints) {
      if (!e.ejected) {
        if (e.multiplier > 0) {
          e.multiplier--;
        }
      } else if (now - e.ejectedAtNanos > Math.min(saturatedTimes(base, e.multiplier), longest)) {
        e.uneject();
        decisions.returned(e);
      }
    }
  }

  private static void successRate(
      Collection<EndpointTracker> endpoints, SuccessRate rule, Cap cap, long now, RandomGenerator random,
      Decisions decisions) {
    List<EndpointTracker> candidates = new ArrayList<>();
    for (EndpointTracker e : endpoints) {
      if (e.volume() >= rule.requestVolume() && e.volume() > 0) {
        candidates.add(e);
      }
    }
    if (candidates.isEmpty() || candidates.size() < rule.minimumHosts()) {
      return;
    }
    double sum = 0;
    for (EndpointTracker e : candidates) {
      sum += rate(e);
    }
    double mean = sum / candidates.size();
    double squares = 0;
    for (EndpointTracker e : candidates) {
      double d = rate(e) - mean;
      squares += d * d;
    }
    double stdev = Math.sqrt(squares / candidates.size());
    double threshold = mean - stdev * (rule.stdevFactor() / 1000.0);
    for (EndpointTracker e : candidates) {
      if (!cap.allows()) {
        return;
      }
      if (!e.ejected && rate(e) < threshold && enforced(rule.enforcementPercentage(), random)) {
        cap.ejected++;
        e.eject(now);
        decisions.ejected(e, String.format("success rate %.3f below %.3f (mean %.3f, stdev %.3f) over %d calls",
            rate(e), threshold, mean, stdev, e.volume()));
      }
    }
  }

  private static void failurePercentage(
      Collection<EndpointTracker> endpoints, FailurePercentage rule, Cap cap, long now, RandomGenerator random,
      Decisions decisions) {
    if (endpoints.size() < rule.minimumHosts()) {
      return;
    }
    for (EndpointTracker e : endpoints) {
      if (!cap.allows()) {
        return;
      }
      long volume = e.volume();
      if (e.ejected || volume == 0 || volume < rule.requestVolume()) {
        continue;
      }
      if (e.failures * 100 > (long) rule.threshold() * volume && enforced(rule.enforcementPercentage(), random)) {
        cap.ejected++;
        e.eject(now);
        decisions.ejected(e, "failure percentage: " + e.failures + " of " + volume + " calls failed, over "
            + rule.threshold() + "%");
      }
    }
  }

  private static double rate(EndpointTracker e) {
    return (double) e.successes / e.volume();
  }

  private static boolean enforced(int percentage, RandomGenerator random) {
    return percentage >= 100 || random.nextInt(100) < percentage;
  }

  static long saturatedNanos(java.time.Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static long saturatedTimes(long nanos, int multiplier) {
    long high = Math.multiplyHigh(nanos, multiplier);
    long product = nanos * multiplier;
    return high != 0 || product < 0 ? Long.MAX_VALUE : product;
  }

  /** {@code max_ejection_percent} of the endpoints, at least one. */
  private static final class Cap {
    private final long total;
    private final int maxPercent;
    int ejected;

    Cap(long total, int maxPercent, int ejected) {
      this.total = total;
      this.maxPercent = maxPercent;
      this.ejected = ejected;
    }

    boolean allows() {
      return ejected == 0 || (ejected + 1L) * 100 <= (long) maxPercent * total;
    }
  }
}
