package io.jxds.balancer.internal.outlier;

import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
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

  /**
   * Sweeps {@code endpoints} at time {@code now}. The counts are read once into primitive arrays,
   * so that the algorithms walk arrays rather than the endpoints (10 000 endpoints: one pass over
   * them before the algorithms and one after).
   */
  static void run(
      List<EndpointTracker> endpoints, OutlierDetection config, long now, RandomGenerator random,
      Decisions decisions) {
    int n = endpoints.size();
    long[] successes = new long[n];
    long[] failures = new long[n];
    int ejected = 0;
    for (int i = 0; i < n; i++) {
      EndpointTracker e = endpoints.get(i);
      e.swapCounts();
      successes[i] = e.successes;
      failures[i] = e.failures;
      if (e.ejected) {
        ejected++;
      }
    }
    Cap cap = new Cap(n, config.maxEjectionPercent(), ejected);
    if (config.successRate().isPresent()) {
      successRate(endpoints, successes, failures, config.successRate().get(), cap, now, random, decisions);
    }
    if (config.failurePercentage().isPresent()) {
      failurePercentage(endpoints, successes, failures, config.failurePercentage().get(), cap, now, random,
          decisions);
    }
    long longest = saturatedNanos(config.baseEjectionTime().compareTo(config.maxEjectionTime()) >= 0
        ? config.baseEjectionTime() : config.maxEjectionTime());
    long base = saturatedNanos(config.baseEjectionTime());
    for (int i = 0; i < n; i++) {
      EndpointTracker e = endpoints.get(i);
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
      List<EndpointTracker> endpoints, long[] successes, long[] failures, SuccessRate rule, Cap cap, long now,
      RandomGenerator random, Decisions decisions) {
    int n = endpoints.size();
    int[] candidates = new int[n];
    double[] rates = new double[n];
    int count = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long volume = successes[i] + failures[i];
      if (volume > 0 && volume >= rule.requestVolume()) {
        double rate = (double) successes[i] / volume;
        candidates[count] = i;
        rates[count++] = rate;
        sum += rate;
      }
    }
    if (count == 0 || count < rule.minimumHosts()) {
      return;
    }
    double mean = sum / count;
    double squares = 0;
    for (int k = 0; k < count; k++) {
      double d = rates[k] - mean;
      squares += d * d;
    }
    double stdev = Math.sqrt(squares / count);
    double threshold = mean - stdev * (rule.stdevFactor() / 1000.0);
    for (int k = 0; k < count; k++) {
      if (!cap.allows()) {
        return;
      }
      if (rates[k] < threshold) {
        EndpointTracker e = endpoints.get(candidates[k]);
        if (!e.ejected && enforced(rule.enforcementPercentage(), random)) {
          cap.ejected++;
          e.eject(now);
          decisions.ejected(e, String.format("success rate %.3f below %.3f (mean %.3f, stdev %.3f) over %d calls",
              rates[k], threshold, mean, stdev, e.volume()));
        }
      }
    }
  }

  private static void failurePercentage(
      List<EndpointTracker> endpoints, long[] successes, long[] failures, FailurePercentage rule, Cap cap,
      long now, RandomGenerator random, Decisions decisions) {
    int n = endpoints.size();
    if (n < rule.minimumHosts()) {
      return;
    }
    for (int i = 0; i < n; i++) {
      if (!cap.allows()) {
        return;
      }
      long volume = successes[i] + failures[i];
      if (volume == 0 || volume < rule.requestVolume() || failures[i] * 100 <= (long) rule.threshold() * volume) {
        continue;
      }
      EndpointTracker e = endpoints.get(i);
      if (!e.ejected && enforced(rule.enforcementPercentage(), random)) {
        cap.ejected++;
        e.eject(now);
        decisions.ejected(e, "failure percentage: " + failures[i] + " of " + volume + " calls failed, over "
            + rule.threshold() + "%");
      }
    }
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
