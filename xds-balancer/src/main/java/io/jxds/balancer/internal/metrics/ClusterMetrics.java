package io.jxds.balancer.internal.metrics;

import io.jxds.api.model.LocalityId;
import java.util.function.LongSupplier;

/**
 * The balancer metrics of one cluster on one channel. The names, labels and meaning are listed in
 * {@link OtelBalancerMetrics}; with metrics off every method returns or does nothing.
 */
public interface ClusterMetrics {
  /** Records nothing. */
  ClusterMetrics NONE = new ClusterMetrics() {
    @Override
    public MetricCounter drops(String category) {
      return MetricCounter.NONE;
    }

    @Override
    public MetricCounter circuitBreakerRefusals() {
      return MetricCounter.NONE;
    }

    @Override
    public MetricCounter localityPicks(LocalityId locality) {
      return MetricCounter.NONE;
    }

    @Override
    public void servingPriority(int priority, int previous) {}

    @Override
    public void inFlight(LongSupplier open) {}

    @Override
    public void close() {}
  };

  /** RPCs dropped by one {@code drop_overloads} category. */
  MetricCounter drops(String category);

  /** RPCs refused by the circuit breaker ({@code max_requests}). */
  MetricCounter circuitBreakerRefusals();

  /** RPCs picked into one locality. */
  MetricCounter localityPicks(LocalityId locality);

  /**
   * The priority serving now changed: records the gauge, and a failover (to a lower priority) or
   * a failback (to a higher one).
   *
   * @param priority the serving priority, -1 when none serves
   * @param previous the one before, -1 when none served
   */
  void servingPriority(int priority, int previous);

  /** Outlier detection (gRFC A50) ejected one of the cluster's endpoints. */
  default void outlierEjection() {}

  /** An endpoint outlier detection had ejected takes traffic again. */
  default void outlierReturn() {}

  /** Reports the cluster's open streams (shared by the process's channels) while registered. */
  void inFlight(LongSupplier open);

  /** The balancer closed: its gauges stop reporting. */
  void close();
}
