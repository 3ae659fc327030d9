package io.jxds.toolkit.internal.cli;

import io.jxds.api.model.OutlierDetection;
import io.jxds.toolkit.internal.plan.OutlierDetectionText;
import java.util.Optional;

/** A cluster's outlier detection (gRFC A50) in the tables and the JSON, or that it is off. */
final class OutlierTexts {
  private OutlierTexts() {}

  /** The table's text; {@link OutlierDetectionText#of}. */
  static String line(Optional<OutlierDetection> detection) {
    return OutlierDetectionText.of(detection);
  }

  /** {@code "outlierDetection": {...}} or {@code null}. */
  static void json(Json j, Optional<OutlierDetection> detection) {
    if (detection.isEmpty()) {
      j.nullValue("outlierDetection");
      return;
    }
    OutlierDetection od = detection.get();
    j.beginObject("outlierDetection").string("interval", OutlierDetectionText.duration(od.interval()))
        .string("baseEjectionTime", OutlierDetectionText.duration(od.baseEjectionTime()))
        .string("maxEjectionTime", OutlierDetectionText.duration(od.maxEjectionTime()))
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
}
