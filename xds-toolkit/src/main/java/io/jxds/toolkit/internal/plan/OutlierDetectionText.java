package io.jxds.toolkit.internal.plan;

import io.jxds.api.model.OutlierDetection;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/** A cluster's outlier detection (gRFC A50) as one line of text, for the tables and the diff. */
public final class OutlierDetectionText {
  private OutlierDetectionText() {}

  /**
   * {@code failure percentage (threshold 85%, ...); every 10s, ejection 30s (at most 300s), at most
   * 10% of endpoints ejected}, or {@code off}.
   */
  public static String of(Optional<OutlierDetection> detection) {
    if (detection.isEmpty()) {
      return "off";
    }
    OutlierDetection od = detection.get();
    StringBuilder s = new StringBuilder();
    od.successRate().ifPresent(r -> s.append("success rate (stdev factor ").append(r.stdevFactor() / 1000.0)
        .append(", enforcing ").append(r.enforcementPercentage()).append("%, minimum hosts ").append(r.minimumHosts())
        .append(", request volume ").append(r.requestVolume()).append(')'));
    od.failurePercentage().ifPresent(f -> s.append(s.length() == 0 ? "" : ", ").append("failure percentage (threshold ")
        .append(f.threshold()).append("%, enforcing ").append(f.enforcementPercentage()).append("%, minimum hosts ")
        .append(f.minimumHosts()).append(", request volume ").append(f.requestVolume()).append(')'));
    return s.append("; every ").append(duration(od.interval())).append(", ejection ")
        .append(duration(od.baseEjectionTime())).append(" (at most ").append(duration(od.maxEjectionTime()))
        .append("), at most ").append(od.maxEjectionPercent()).append("% of endpoints ejected").toString();
  }

  /** Seconds as protobuf's JSON writes a Duration: {@code 10s}, {@code 1.5s}. */
  public static String duration(Duration d) {
    BigDecimal seconds = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    return (seconds.signum() == 0 ? "0" : seconds.stripTrailingZeros().toPlainString()) + "s";
  }
}
