package io.jxds.api.internal.decode;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
import java.time.Duration;
import java.util.Optional;

/**
 * Validates a cluster's {@code outlier_detection} into an {@link OutlierDetection} (gRFC A50,
 * "xDS Integration" and "Validation"):
 *
 * <ul>
 *   <li>{@code interval}, {@code base_ejection_time}, {@code max_ejection_time}: valid
 *       {@code google.protobuf.Duration}s, and positive as Envoy's {@code outlier_detection.proto}
 *       requires ({@code duration = {gt {}}}): a sweep every 0 s cannot be scheduled;
 *   <li>{@code max_ejection_percent}, {@code enforcing_success_rate},
 *       {@code failure_percentage_threshold}, {@code enforcing_failure_percentage}: at most 100;
 *   <li>{@code enforcing_success_rate} 0 turns success rate off (unset: on, 100);
 *       {@code enforcing_failure_percentage} 0 <em>or unset</em> turns failure percentage off;
 *   <li>the consecutive-error, gateway and local-origin fields are ignored (gRFC A50,
 *       "Rationale").
 * </ul>
 */
final class OutlierDetectionDecoder {
  private static final String FIELD = "outlier_detection.";
  /** {@code google.protobuf.Duration}'s range: ±10 000 years. */
  private static final long MAX_SECONDS = 315_576_000_000L;

  private OutlierDetectionDecoder() {}

  static Optional<OutlierDetection> decode(Cluster cluster, String name) throws XdsResourceException {
    if (!cluster.hasOutlierDetection()) {
      return Optional.empty();
    }
    io.envoyproxy.envoy.config.cluster.v3.OutlierDetection od = cluster.getOutlierDetection();
    Duration interval = duration(od.hasInterval(), od.getInterval(), "interval",
        OutlierDetection.DEFAULT_INTERVAL, name);
    Duration base = duration(od.hasBaseEjectionTime(), od.getBaseEjectionTime(), "base_ejection_time",
        OutlierDetection.DEFAULT_BASE_EJECTION_TIME, name);
    Duration max = duration(od.hasMaxEjectionTime(), od.getMaxEjectionTime(), "max_ejection_time",
        OutlierDetection.DEFAULT_MAX_EJECTION_TIME, name);
    int maxPercent = percent(od.hasMaxEjectionPercent(), od.getMaxEjectionPercent(), "max_ejection_percent",
        OutlierDetection.DEFAULT_MAX_EJECTION_PERCENT, name);
    int enforcingSuccessRate = percent(od.hasEnforcingSuccessRate(), od.getEnforcingSuccessRate(),
        "enforcing_success_rate", 100, name);
    int threshold = percent(od.hasFailurePercentageThreshold(), od.getFailurePercentageThreshold(),
        "failure_percentage_threshold", 85, name);
    int enforcingFailurePercentage = percent(od.hasEnforcingFailurePercentage(),
        od.getEnforcingFailurePercentage(), "enforcing_failure_percentage", 0, name);
    Optional<SuccessRate> successRate = enforcingSuccessRate == 0
        ? Optional.empty()
        : Optional.of(new SuccessRate(
            uint32(od.hasSuccessRateStdevFactor(), od.getSuccessRateStdevFactor(), 1900),
            enforcingSuccessRate,
            uint32(od.hasSuccessRateMinimumHosts(), od.getSuccessRateMinimumHosts(), 5),
            uint32(od.hasSuccessRateRequestVolume(), od.getSuccessRateRequestVolume(), 100)));
    Optional<FailurePercentage> failurePercentage = enforcingFailurePercentage == 0
        ? Optional.empty()
        : Optional.of(new FailurePercentage(
            threshold,
            enforcingFailurePercentage,
            uint32(od.hasFailurePercentageMinimumHosts(), od.getFailurePercentageMinimumHosts(), 5),
            uint32(od.hasFailurePercentageRequestVolume(), od.getFailurePercentageRequestVolume(), 50)));
    return Optional.of(new OutlierDetection(interval, base, max, maxPercent, successRate, failurePercentage));
  }

  private static Duration duration(
      boolean set, com.google.protobuf.Duration d, String field, Duration unset, String name)
      throws XdsResourceException {
    if (!set) {
      return unset;
    }
    long seconds = d.getSeconds();
    int nanos = d.getNanos();
    boolean valid = Math.abs(seconds) <= MAX_SECONDS
        && nanos > -1_000_000_000 && nanos < 1_000_000_000
        && !(seconds > 0 && nanos < 0) && !(seconds < 0 && nanos > 0);
    if (!valid) {
      throw Nack.of(ClusterDecoder.KIND, name, FIELD + field + " must be a valid duration", show(d));
    }
    if (seconds < 0 || nanos < 0 || (seconds == 0 && nanos == 0)) {
      throw Nack.of(ClusterDecoder.KIND, name, FIELD + field + " must be positive", show(d));
    }
    return Duration.ofSeconds(seconds, nanos);
  }

  private static int percent(boolean set, UInt32Value value, String field, int unset, String name)
      throws XdsResourceException {
    if (!set) {
      return unset;
    }
    long v = Integer.toUnsignedLong(value.getValue());
    if (v > 100) {
      throw Nack.of(ClusterDecoder.KIND, name, FIELD + field + " must be at most 100", v);
    }
    return (int) v;
  }

  private static long uint32(boolean set, UInt32Value value, long unset) {
    return set ? Integer.toUnsignedLong(value.getValue()) : unset;
  }

  private static String show(com.google.protobuf.Duration d) {
    return "{seconds: " + d.getSeconds() + ", nanos: " + d.getNanos() + "}";
  }
}
