package io.jxds.examples;

import io.grpc.Status;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts RPC outcomes from many worker threads at once: answered per backend address, failed,
 * and dropped by the load balancer; the answered RPCs that carried the demo's header ("tagged",
 * see {@link TrafficGenerator}) are also counted on their own. Lock-free (adders); readers take
 * {@link #snapshot()}s and subtract two of them to get a {@link Window}.
 */
final class TrafficStats {
  /** The description prefix of a jxds drop (EDS {@code drop_overloads}). */
  static final String DROP_PREFIX = "dropped by load balancer";

  private final Map<String, LongAdder> answered = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> tagged = new ConcurrentHashMap<>();
  /** Answered RPCs per user ({@link TrafficGenerator}'s user header) and backend address. */
  private final Map<String, Map<String, LongAdder>> users = new ConcurrentHashMap<>();
  private final LongAdder failed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final AtomicReference<Status> lastFailure = new AtomicReference<>();

  /** An RPC answered by the backend at {@code address} ({@code host:port}). */
  void answered(String address) {
    answered(address, false);
  }

  /** An RPC answered by the backend at {@code address}; {@code tagged}: it carried the header. */
  void answered(String address, boolean tagged) {
    answered.computeIfAbsent(address, a -> new LongAdder()).increment();
    if (tagged) {
      this.tagged.computeIfAbsent(address, a -> new LongAdder()).increment();
    }
  }

  /** An RPC of {@code user} answered by the backend at {@code address}; {@code tagged}: it carried the header. */
  void answered(String address, boolean tagged, String user) {
    users.computeIfAbsent(user, u -> new ConcurrentHashMap<>()).computeIfAbsent(address, a -> new LongAdder())
        .increment();
    answered(address, tagged);
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
    // Tagged first: a tagged count never exceeds the answered count read after it.
    Map<String, Long> taggedCounts = sums(tagged);
    Map<String, Map<String, Long>> userCounts = new HashMap<>();
    users.forEach((user, byAddress) -> userCounts.put(user, sums(byAddress)));
    return new Snapshot(System.nanoTime(), sums(answered), failed.sum(), dropped.sum(), taggedCounts,
        Map.copyOf(userCounts));
  }

  private static Map<String, Long> sums(Map<String, LongAdder> adders) {
    Map<String, Long> counts = new HashMap<>();
    adders.forEach((address, n) -> counts.put(address, n.sum()));
    return Map.copyOf(counts);
  }

  /**
   * The counters at one instant.
   *
   * @param tagged the answered RPCs that carried the header, per backend address
   * @param users the answered RPCs per user, then per backend address
   */
  record Snapshot(long nanoTime, Map<String, Long> answered, long failed, long dropped, Map<String, Long> tagged,
      Map<String, Map<String, Long>> users) {
    /** What happened between {@code earlier} and this snapshot. */
    Window since(Snapshot earlier) {
      Map<String, Map<String, Long>> userDelta = new HashMap<>();
      users.forEach((user, byAddress) -> {
        Map<String, Long> d = delta(byAddress, earlier.users.getOrDefault(user, Map.of()));
        if (!d.isEmpty()) {
          userDelta.put(user, d);
        }
      });
      return new Window((nanoTime - earlier.nanoTime) / 1e9, delta(answered, earlier.answered),
          failed - earlier.failed, dropped - earlier.dropped, delta(tagged, earlier.tagged), Map.copyOf(userDelta));
    }

    private static Map<String, Long> delta(Map<String, Long> now, Map<String, Long> earlier) {
      Map<String, Long> delta = new HashMap<>();
      now.forEach((address, n) -> {
        long d = n - earlier.getOrDefault(address, 0L);
        if (d > 0) {
          delta.put(address, d);
        }
      });
      return Map.copyOf(delta);
    }
  }

  /**
   * The RPCs of one time window.
   *
   * @param seconds the window's length
   * @param answered answered RPCs per backend address
   * @param tagged of those, the RPCs that carried the header
   * @param users the answered RPCs per user, then per backend address
   */
  record Window(double seconds, Map<String, Long> answered, long failed, long dropped, Map<String, Long> tagged,
      Map<String, Map<String, Long>> users) {
    /** A window without tagged RPCs. */
    Window(double seconds, Map<String, Long> answered, long failed, long dropped) {
      this(seconds, answered, failed, dropped, Map.of(), Map.of());
    }

    long answeredTotal() {
      return answered.values().stream().mapToLong(Long::longValue).sum();
    }

    long taggedTotal() {
      return tagged.values().stream().mapToLong(Long::longValue).sum();
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
