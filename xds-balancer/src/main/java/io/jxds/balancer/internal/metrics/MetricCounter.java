package io.jxds.balancer.internal.metrics;

/**
 * One counter with its labels already bound, resolved when a picker is built so that counting on
 * an RPC thread is a single call.
 */
@FunctionalInterface
public interface MetricCounter {
  /** Counts nothing: metrics are off. */
  MetricCounter NONE = () -> {};

  /** Adds one. */
  void increment();
}
