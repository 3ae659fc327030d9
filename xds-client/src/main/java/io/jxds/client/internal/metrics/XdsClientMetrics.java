package io.jxds.client.internal.metrics;

import io.jxds.api.XdsClientStatus;
import java.util.function.Supplier;

/**
 * What an xDS client records for gRFC A78's {@code grpc.xds_client.*} metrics. The client calls
 * it on its sync context; the gauges ({@code connected}, {@code resources}) read the client's
 * status snapshot when the metrics are collected, so they cost nothing in between.
 */
public interface XdsClientMetrics {
  /** Records nothing. */
  XdsClientMetrics NONE = new XdsClientMetrics() {
    @Override
    public void serverFailure(String server) {}

    @Override
    public void resourceUpdates(String typeUrl, long valid, long invalid) {}

    @Override
    public void close() {}
  };

  /**
   * The metrics of one client.
   *
   * @param telemetry where to record; {@link Telemetry#NONE}: nowhere, and no OpenTelemetry class
   *     is loaded
   * @param server the control plane's target ({@code grpc.xds.server})
   * @param status the client's latest status snapshot
   * @return the client's metrics
   */
  static XdsClientMetrics create(Telemetry telemetry, String server, Supplier<XdsClientStatus> status) {
    return telemetry.enabled() ? new OtelXdsClientMetrics(telemetry.instance(), server, status) : NONE;
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
   * @param typeUrl the type URL
   * @param valid how many were accepted
   * @param invalid how many were rejected
   */
  void resourceUpdates(String typeUrl, long valid, long invalid);

  /** The client closed: its gauges stop reporting. */
  void close();
}
