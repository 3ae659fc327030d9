package io.jxds.examples;

import io.grpc.Status;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts RPC outcomes from many worker threads at once: answered per backend address, failed,
 * and dropped by the load balancer. Lock-free (adders); readers take {@link #snapshot()}s and
 * subtract two of them to get a {@link Window}.
 */
final class TrafficStats {
  /** The description prefix of a jxds drop (EDS {@code drop_overloads}). */
  static final String DROP_PREFIX = "dropped by load balancer";

  private final Map<String, LongAdder> answered = new ConcurrentHashMap<>();
  private final LongAdder failed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final AtomicReference<Status> lastFailure = new AtomicReference<>();

  /** An RPC answered by the backend at {@code address} ({@code host:port}). */
  void answered(String address) {
    answered.computeIfAbsent(address, a -> new LongAdder()).increment();
  }

  /** An RPC that failed with {@code status}; drops are told apart by their description. */
  void failed(Status status) {
    String description = status.getDescription();
    if (status.getCode() == Status.Code.UNAVAILABLE && description != null && description.startsWith(DROP_PREFIX)) {
      dropped.increment();
    } else {
      failed.increment();
      lastFailure.set(status);
    }
  }

  /** The status of the last failure (not drop), or null. */
  Status lastFailure() {
    return lastFailure.get();
  }

  /** The counters now. */
  Snapshot snapshot() {
    Map<String, Long> counts = new HashMap<>();
    answered.forEach((address, n) -> counts.put(address, n.sum()));
    return new Snapshot(System.nanoTime(), Map.copyOf(counts), failed.sum(), dropped.sum());
  }

  /** The counters at one instant. */
  record Snapshot(long nanoTime, Map<String, Long> answered, long failed, long dropped) {
    /** What happened between {@code earlier} and this snapshot. */
    Window since(Snapshot earlier) {
      Map<String, Long> delta = new HashMap<>();
      answered.forEach((address, n) -> {
        long d = n - earlier.answered.getOrDefault(address, 0L);
        if (d > 0) {
          delta.put(address, d);
        }
      });
      return new Window((nanoTime - earlier.nanoTime) / 1e9, Map.copyOf(delta),
          failed - earlier.failed, dropped - earlier.dropped);
    }
  }

  /**
   * The RPCs of one time window.
   *
   * @param seconds the window's length
   * @param answered answered RPCs per backend address
   */
  record Window(double seconds, Map<String, Long> answered, long failed, long dropped) {
    long answeredTotal() {
      return answered.values().stream().mapToLong(Long::longValue).sum();
    }

    long total() {
      return answeredTotal() + failed + dropped;
    }

    /** RPCs per second, of every outcome. */
    double rate() {
      return seconds <= 0 ? 0 : total() / seconds;
    }

    /** Failures as a percentage of all RPCs (0 when there were none). */
    double failedPercent() {
      return percent(failed, total());
    }

    /** Drops as a percentage of all RPCs. */
    double droppedPercent() {
      return percent(dropped, total());
    }

    static double percent(long part, long whole) {
      return whole == 0 ? 0 : 100.0 * part / whole;
    }
  }
}
