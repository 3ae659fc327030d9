package io.jxds.client.internal;

import io.jxds.api.XdsClient;
import io.jxds.client.internal.lrs.LoadStatsStore;
import io.jxds.client.internal.metrics.Telemetry;

/**
 * Not API: what the balancer reaches inside a jxds client (its load-report counters, its
 * telemetry) without {@code DefaultXdsClient} exposing them. The client installs its accessor
 * once, when its class is initialised; before that no jxds client exists, and every answer is
 * "none".
 */
public final class ClientInternals {
  /** What {@code DefaultXdsClient} installs. */
  public interface Access {
    /**
     * The load-report counters of {@code cluster} (whose {@code lrs_server} is {@code self}): those
     * of the client serving the cluster's authority (gRFC A47), or null when {@code client} is not
     * a jxds client.
     */
    LoadStatsStore loadStats(XdsClient client, String cluster);

    /** The client's telemetry, or null when {@code client} is not a jxds client. */
    Telemetry telemetry(XdsClient client);
  }

  private static volatile Access access;

  private ClientInternals() {}

  /**
   * Called once by {@code DefaultXdsClient}'s static initialiser.
   *
   * @param a the accessor
   * @throws IllegalStateException if an accessor is installed already
   */
  public static synchronized void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("ClientInternals is installed already");
    }
    access = a;
  }

  /**
   * The load-report counters of a jxds client (directly or through a pool lease).
   *
   * @param client any client
   * @return its counters, or null for another kind of client (a test double)
   */
  public static LoadStatsStore loadStats(XdsClient client) {
    return loadStats(client, "");
  }

  /**
   * The load-report counters for a cluster whose {@code lrs_server} is {@code self}: with
   * federation (gRFC A47), those of the client of the cluster's authority, whose stream reports to
   * that authority's server; else the client's own.
   *
   * @param client any client
   * @param cluster the cluster's name, as watched
   * @return its counters, or null for another kind of client (a test double)
   */
  public static LoadStatsStore loadStats(XdsClient client, String cluster) {
    Access a = access;
    return a == null ? null : a.loadStats(client, cluster);
  }

  /**
   * The telemetry of a jxds client, or the global one for another kind of client.
   *
   * @param client any client
   * @return where its balancers record metrics
   */
  public static Telemetry telemetry(XdsClient client) {
    Access a = access;
    Telemetry t = a == null ? null : a.telemetry(client);
    return t == null ? Telemetry.global() : t;
  }
}
