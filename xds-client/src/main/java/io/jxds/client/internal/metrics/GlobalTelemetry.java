package io.jxds.client.internal.metrics;

import io.opentelemetry.api.GlobalOpenTelemetry;

/** Reads the global OpenTelemetry; loaded only once the API is known to be on the class path. */
final class GlobalTelemetry {
  private GlobalTelemetry() {}

  static Object ifSet() {
    return GlobalOpenTelemetry.isSet() ? GlobalOpenTelemetry.get() : null;
  }
}
