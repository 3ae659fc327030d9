package io.jxds.balancer.internal.eds;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the RPCs one cluster's balancer dropped, per drop category and for circuit breaking, so
 * that load reports (LRS) can report them later. Counters outlive pickers: a new picker after an
 * update keeps counting where the old one stopped.
 */
final class DropStats {
  private final ConcurrentMap<String, AtomicLong> byCategory = new ConcurrentHashMap<>();
  private final AtomicLong circuitBreaker = new AtomicLong();

  /** The counter of one category; pickers resolve it once when built, not per pick. */
  AtomicLong category(String category) {
    return byCategory.computeIfAbsent(category, c -> new AtomicLong());
  }

  AtomicLong circuitBreaker() {
    return circuitBreaker;
  }

  /** Drops so far per category, sorted by category. */
  Map<String, Long> categorySnapshot() {
    Map<String, Long> out = new TreeMap<>();
    byCategory.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
