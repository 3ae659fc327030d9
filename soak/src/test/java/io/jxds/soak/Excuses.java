package io.jxds.soak;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Grace windows per cluster: from the start of an operation about the cluster until a second
 * after the soak saw it converge. An RPC failure on a channel of that cluster that overlaps a
 * window is no violation.
 */
final class Excuses {
  private static final long KEEP_NANOS = 60_000_000_000L;

  /**
   * A window; {@code end} is Long.MAX_VALUE while the operation has not converged. {@code
   * endpointFailure}: opened by one endpoint failing (a backend killed), which a route's retries
   * must hide (gRFC A44), so it excuses no failure of a channel whose route retries.
   */
  static final class Window {
    final long start;
    final boolean endpointFailure;
    volatile long end = Long.MAX_VALUE;

    Window(long start, boolean endpointFailure) {
      this.start = start;
      this.endpointFailure = endpointFailure;
    }
  }

  private final Map<String, List<Window>> windows = new ConcurrentHashMap<>();

  Window open(String cluster, long now) {
    return open(cluster, now, false);
  }

  Window open(String cluster, long now, boolean endpointFailure) {
    Window w = new Window(now, endpointFailure);
    List<Window> list = windows.computeIfAbsent(cluster, k -> new CopyOnWriteArrayList<>());
    list.removeIf(old -> old.end < now - KEEP_NANOS);
    list.add(w);
    return w;
  }

  boolean covers(String cluster, long start, long end) {
    return covers(cluster, start, end, false);
  }

  /** Whether a window overlaps [start, end]; {@code retried}: not counting endpoint-failure windows. */
  boolean covers(String cluster, long start, long end, boolean retried) {
    List<Window> list = windows.get(cluster);
    if (list == null) {
      return false;
    }
    for (Window w : list) {
      if (start <= w.end && end >= w.start && !(retried && w.endpointFailure)) {
        return true;
      }
    }
    return false;
  }
}
