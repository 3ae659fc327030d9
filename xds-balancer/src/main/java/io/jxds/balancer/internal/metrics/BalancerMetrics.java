package io.jxds.balancer.internal.metrics;

import io.jxds.client.internal.metrics.Telemetry;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Where the balancer's metrics go: one OpenTelemetry meter's instruments, shared by every channel
 * that records into the same OpenTelemetry instance. Without telemetry nothing is created and no
 * OpenTelemetry class is loaded.
 */
public final class BalancerMetrics {
  /** Instruments per OpenTelemetry instance; an instance nobody holds any more is dropped. */
  private static final Map<Object, OtelBalancerMetrics> BY_INSTANCE = new WeakHashMap<>();

  private BalancerMetrics() {}

  /**
   * The metrics of one cluster of one channel.
   *
   * @param telemetry where to record
   * @param channelTarget the channel's target ({@code grpc.target})
   * @param cluster the cluster
   * @return its metrics; {@link ClusterMetrics#NONE} without telemetry
   */
  public static ClusterMetrics cluster(Telemetry telemetry, String channelTarget, String cluster) {
    if (!telemetry.enabled()) {
      return ClusterMetrics.NONE;
    }
    OtelBalancerMetrics metrics;
    synchronized (BY_INSTANCE) {
      metrics = BY_INSTANCE.computeIfAbsent(telemetry.instance(), OtelBalancerMetrics::new);
    }
    return metrics.cluster(channelTarget, cluster);
  }
}
