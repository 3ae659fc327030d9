package io.jxds.client.internal.metrics;

/**
 * The OpenTelemetry instance a client records its metrics into, or none. Held as an {@code Object}
 * so that code which only passes it around never loads an OpenTelemetry class: the API is an
 * optional dependency, and an application without it must run unchanged.
 */
public final class Telemetry {
  /** No metrics. */
  public static final Telemetry NONE = new Telemetry(null);

  private final Object openTelemetry;

  private Telemetry(Object openTelemetry) {
    this.openTelemetry = openTelemetry;
  }

  /**
   * An {@code io.opentelemetry.api.OpenTelemetry} a user passed.
   *
   * @param openTelemetry the instance; must be an {@code OpenTelemetry}
   * @return a telemetry recording into it
   */
  public static Telemetry of(Object openTelemetry) {
    return new Telemetry(java.util.Objects.requireNonNull(openTelemetry, "openTelemetry"));
  }

  /**
   * The global OpenTelemetry when the API is on the class path and an application (or the Java
   * agent) has set one, else {@link #NONE}. Never sets the global itself: reading it with {@code
   * GlobalOpenTelemetry.get()} would freeze it to a no-op before the application sets its own.
   *
   * @return the telemetry to use when the user passed none
   */
  public static Telemetry global() {
    if (!apiPresent()) {
      return NONE;
    }
    Object global = GlobalTelemetry.ifSet();
    return global == null ? NONE : new Telemetry(global);
  }

  /** Whether metrics are recorded at all. */
  public boolean enabled() {
    return openTelemetry != null;
  }

  /**
   * The {@code io.opentelemetry.api.OpenTelemetry}, or null when {@link #enabled()} is false.
   *
   * @return the instance
   */
  public Object instance() {
    return openTelemetry;
  }

  private static boolean apiPresent() {
    try {
      Class.forName("io.opentelemetry.api.GlobalOpenTelemetry", false, Telemetry.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
