package io.jxds.client.internal.metrics;

import io.jxds.api.XdsClientStatus;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an xDS client records for gRFC A78's {@code grpc.xds_client.*} metrics. The client calls
 * it on its sync context; the gauges ({@code connected}, {@code resources}) read the client's
 * snapshots (status, and each server's connection) when the metrics are collected, so they cost
 * nothing in between.
 */
public interface XdsClientMetrics {
  /** Records nothing. */
  XdsClientMetrics NONE = new XdsClientMetrics() {
    @Override
    public void serverFailure(String server) {}

    @Override
    public void resourceUpdates(String server, String typeUrl, long valid, long invalid) {}

    @Override
    public void close() {}
  };

  /**
   * The metrics of one client.
   *
   * @param telemetry where to record; {@link Telemetry#NONE}: nowhere, and no OpenTelemetry class
   *     is loaded
   * @param connected the client's latest snapshot of its servers (targets, {@code grpc.xds.server},
   *     each one once however many lists name it, gRFC A47) and whether each is connected
   * @param status the client's latest status snapshot
   * @return the client's metrics
   */
  static XdsClientMetrics create(
      Telemetry telemetry, Supplier<Map<String, Boolean>> connected, Supplier<XdsClientStatus> status) {
    return telemetry.enabled() ? new OtelXdsClientMetrics(telemetry.instance(), connected, status) : NONE;
  }

  /**
   * gRFC A57/A78: a server went from working to failing (a stream failed before any response).
   *
   * @param server its target ({@code grpc.xds.server}): the client's first server, or with
   *     federation (gRFC A47) an authority's
   */
  void serverFailure(String server);

  /**
   * One response's resources of a type that were validated: accepted and rejected.
   *
   * @param server the target of the server that sent them ({@code grpc.xds.server})
   * @param typeUrl the type URL
   * @param valid how many were accepted
   * @param invalid how many were rejected
   */
  void resourceUpdates(String server, String typeUrl, long valid, long invalid);

  /** The client closed: its gauges stop reporting. */
  void close();
}
