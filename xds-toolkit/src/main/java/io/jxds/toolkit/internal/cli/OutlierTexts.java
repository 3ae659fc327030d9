package io.jxds.toolkit.internal.cli;

import io.jxds.api.model.OutlierDetection;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/** A cluster's outlier detection (gRFC A50) in the tables and the JSON, or that it is off. */
final class OutlierTexts {
  private OutlierTexts() {}

  /**
   * {@code failure percentage (threshold 85%, ...); every 10s, ejection 30s (at most 300s), at most
   * 10% of endpoints ejected}, or {@code off}.
   */
  static String line(Optional<OutlierDetection> detection) {
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

  /** {@code "outlierDetection": {...}} or {@code null}. */
  static void json(Json j, Optional<OutlierDetection> detection) {
    if (detection.isEmpty()) {
      j.nullValue("outlierDetection");
      return;
    }
    OutlierDetection od = detection.get();
    j.beginObject("outlierDetection").string("interval", duration(od.interval()))
        .string("baseEjectionTime", duration(od.baseEjectionTime()))
        .string("maxEjectionTime", duration(od.maxEjectionTime()))
        .number("maxEjectionPercent", od.maxEjectionPercent());
    if (od.successRate().isPresent()) {
      OutlierDetection.SuccessRate r = od.successRate().get();
      j.beginObject("successRate").number("stdevFactor", r.stdevFactor())
          .number("enforcementPercentage", r.enforcementPercentage()).number("minimumHosts", r.minimumHosts())
          .number("requestVolume", r.requestVolume()).end();
    } else {
      j.nullValue("successRate");
    }
    if (od.failurePercentage().isPresent()) {
      OutlierDetection.FailurePercentage f = od.failurePercentage().get();
      j.beginObject("failurePercentage").number("threshold", f.threshold())
          .number("enforcementPercentage", f.enforcementPercentage()).number("minimumHosts", f.minimumHosts())
          .number("requestVolume", f.requestVolume()).end();
    } else {
      j.nullValue("failurePercentage");
    }
    j.end();
  }

  /** Seconds as protobuf's JSON writes a Duration: {@code 10s}, {@code 1.5s}. */
  static String duration(Duration d) {
    BigDecimal seconds = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    return (seconds.signum() == 0 ? "0" : seconds.stripTrailingZeros().toPlainString()) + "s";
  }
}
