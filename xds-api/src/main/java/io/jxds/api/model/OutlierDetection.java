package io.jxds.api.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A cluster's {@code outlier_detection} as gRPC reads it (gRFC A50): the success-rate and
 * failure-percentage algorithms, each present only when enabled, and the ejection times.
 *
 * @param interval the time between ejection sweeps ({@code interval}, default 10 s), positive
 * @param baseEjectionTime an ejection lasts this times the endpoint's ejection multiplier
 *     ({@code base_ejection_time}, default 30 s), positive
 * @param maxEjectionTime the longest an ejection lasts, unless {@code baseEjectionTime} is longer
 *     ({@code max_ejection_time}, default 300 s), positive
 * @param maxEjectionPercent the share of the cluster's endpoints that may be ejected at once, in
 *     [0, 100], though one endpoint may always be ({@code max_ejection_percent}, default 10)
 * @param successRate the success-rate algorithm; empty when {@code enforcing_success_rate} is 0
 * @param failurePercentage the failure-percentage algorithm; empty when
 *     {@code enforcing_failure_percentage} is 0 or unset (gRFC A50, "xDS Integration")
 */
public record OutlierDetection(
    Duration interval,
    Duration baseEjectionTime,
    Duration maxEjectionTime,
    int maxEjectionPercent,
    Optional<SuccessRate> successRate,
    Optional<FailurePercentage> failurePercentage) {
  /** Envoy's and gRFC A50's default {@code interval}. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
  /** Envoy's and gRFC A50's default {@code base_ejection_time}. */
  public static final Duration DEFAULT_BASE_EJECTION_TIME = Duration.ofSeconds(30);
  /** Envoy's and gRFC A50's default {@code max_ejection_time}. */
  public static final Duration DEFAULT_MAX_EJECTION_TIME = Duration.ofSeconds(300);
  /** Envoy's and gRFC A50's default {@code max_ejection_percent}. */
  public static final int DEFAULT_MAX_EJECTION_PERCENT = 10;

  /**
   * Creates the settings, checking them.
   *
   * @param interval positive
   * @param baseEjectionTime positive
   * @param maxEjectionTime positive
   * @param maxEjectionPercent in [0, 100]
   * @param successRate the success-rate algorithm, empty when off
   * @param failurePercentage the failure-percentage algorithm, empty when off
   * @throws IllegalArgumentException if a duration is not positive or the percentage is out of range
   */
  public OutlierDetection {
    Objects.requireNonNull(successRate, "successRate");
    Objects.requireNonNull(failurePercentage, "failurePercentage");
    positive(interval, "interval");
    positive(baseEjectionTime, "baseEjectionTime");
    positive(maxEjectionTime, "maxEjectionTime");
    percent(maxEjectionPercent, "maxEjectionPercent");
  }

  /**
   * Whether either algorithm is on: without one, nothing is counted and nothing ejected.
   *
   * @return true when an algorithm is configured
   */
  public boolean enabled() {
    return successRate.isPresent() || failurePercentage.isPresent();
  }

  /**
   * The success-rate algorithm: an endpoint whose success rate is below the mean of the endpoints
   * with enough calls by more than {@code stdevFactor / 1000} standard deviations is ejected.
   *
   * @param stdevFactor {@code success_rate_stdev_factor}, thousandths (default 1900)
   * @param enforcementPercentage {@code enforcing_success_rate}, in [1, 100] (default 100)
   * @param minimumHosts {@code success_rate_minimum_hosts}, unsigned 32-bit (default 5)
   * @param requestVolume {@code success_rate_request_volume}, unsigned 32-bit (default 100)
   */
  public record SuccessRate(long stdevFactor, int enforcementPercentage, long minimumHosts, long requestVolume) {
    /**
     * Creates the settings, checking them.
     *
     * @param stdevFactor unsigned 32-bit
     * @param enforcementPercentage in [1, 100]
     * @param minimumHosts unsigned 32-bit
     * @param requestVolume unsigned 32-bit
     * @throws IllegalArgumentException if a value is out of range
     */
    public SuccessRate {
      uint32(stdevFactor, "stdevFactor");
      enforcement(enforcementPercentage);
      uint32(minimumHosts, "minimumHosts");
      uint32(requestVolume, "requestVolume");
    }

    /**
     * gRFC A50's defaults.
     *
     * @return 1900, 100, 5, 100
     */
    public static SuccessRate defaults() {
      return new SuccessRate(1900, 100, 5, 100);
    }
  }

  /**
   * The failure-percentage algorithm: an endpoint with enough calls whose failures exceed
   * {@code threshold} percent of them is ejected.
   *
   * @param threshold {@code failure_percentage_threshold}, in [0, 100] (default 85)
   * @param enforcementPercentage {@code enforcing_failure_percentage}, in [1, 100]
   * @param minimumHosts {@code failure_percentage_minimum_hosts}, unsigned 32-bit (default 5)
   * @param requestVolume {@code failure_percentage_request_volume}, unsigned 32-bit (default 50)
   */
  public record FailurePercentage(int threshold, int enforcementPercentage, long minimumHosts, long requestVolume) {
    /**
     * Creates the settings, checking them.
     *
     * @param threshold in [0, 100]
     * @param enforcementPercentage in [1, 100]
     * @param minimumHosts unsigned 32-bit
     * @param requestVolume unsigned 32-bit
     * @throws IllegalArgumentException if a value is out of range
     */
    public FailurePercentage {
      percent(threshold, "threshold");
      enforcement(enforcementPercentage);
      uint32(minimumHosts, "minimumHosts");
      uint32(requestVolume, "requestVolume");
    }

    /**
     * gRFC A50's defaults, enforced always.
     *
     * @return 85, 100, 5, 50
     */
    public static FailurePercentage defaults() {
      return new FailurePercentage(85, 100, 5, 50);
    }
  }

  /**
   * gRFC A50's defaults: success rate on with its defaults, failure percentage off.
   *
   * @return the settings an {@code outlier_detection} with no field set gives
   */
  public static OutlierDetection defaults() {
    return new OutlierDetection(DEFAULT_INTERVAL, DEFAULT_BASE_EJECTION_TIME, DEFAULT_MAX_EJECTION_TIME,
        DEFAULT_MAX_EJECTION_PERCENT, Optional.of(SuccessRate.defaults()), Optional.empty());
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
  }

  private static void percent(int value, String name) {
    if (value < 0 || value > 100) {
      throw new IllegalArgumentException(name + " must be in [0, 100], got " + value);
    }
  }

  private static void enforcement(int value) {
    if (value < 1 || value > 100) {
      throw new IllegalArgumentException("enforcementPercentage must be in [1, 100], got " + value);
    }
  }

  private static void uint32(long value, String name) {
    if (value < 0 || value > Weights.MAX_UINT32) {
      throw new IllegalArgumentException(name + " must be in [0, 2^32-1], got " + value);
    }
  }
}
