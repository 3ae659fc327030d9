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

  /** A window; {@code end} is Long.MAX_VALUE while the operation has not converged. */
  static final class Window {
    final long start;
    volatile long end = Long.MAX_VALUE;

    Window(long start) {
      this.start = start;
    }
  }

  private final Map<String, List<Window>> windows = new ConcurrentHashMap<>();

  Window open(String cluster, long now) {
    Window w = new Window(now);
    List<Window> list = windows.computeIfAbsent(cluster, k -> new CopyOnWriteArrayList<>());
    list.removeIf(old -> old.end < now - KEEP_NANOS);
    list.add(w);
    return w;
  }

  boolean covers(String cluster, long start, long end) {
    List<Window> list = windows.get(cluster);
    if (list == null) {
      return false;
    }
    for (Window w : list) {
      if (start <= w.end && end >= w.start) {
        return true;
      }
    }
    return false;
  }
}
