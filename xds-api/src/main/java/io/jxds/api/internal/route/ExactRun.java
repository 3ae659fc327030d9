package io.jxds.api.internal.route;

import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.StringMatcher;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Consecutive routes that differ only by the exact value one header must have (the shape of
 * header-based canary and version routes: {@code x-version: v1 -> c1, x-version: v2 -> c2, ...}),
 * matched with one lookup instead of one comparison per route. The routes share one path matcher;
 * each has exactly one header matcher, on the same header, case-sensitive {@code exact}, neither
 * inverted nor treating a missing header as empty; none has a runtime fraction that could fail.
 * For such routes the first that matches is the first whose value equals the header's, and none
 * matches a call without the header: the same answer as trying them one by one (gRFC A28).
 */
final class ExactRun {
  /** Shorter runs are tried one by one: a lookup does not pay for itself. */
  static final int MIN_LENGTH = 3;

  private final Map<String, RouteEntry> byValue;
  private final int end;

  private ExactRun(Map<String, RouteEntry> byValue, int end) {
    this.byValue = byValue;
    this.end = end;
  }

  /** The run starting at {@code start}, or null when fewer than {@link #MIN_LENGTH} routes form one. */
  static @Nullable ExactRun startingAt(RouteEntry[] entries, int start) {
    RouteEntry first = entries[start];
    if (exactValue(first) == null) {
      return null;
    }
    int end = start + 1;
    while (end < entries.length && exactValue(entries[end]) != null
        && entries[end].pathIndex == first.pathIndex && entries[end].readerIndex[0] == first.readerIndex[0]) {
      end++;
    }
    if (end - start < MIN_LENGTH) {
      return null;
    }
    Map<String, RouteEntry> byValue = new HashMap<>();
    for (int i = start; i < end; i++) {
      byValue.putIfAbsent(exactValue(entries[i]), entries[i]); // the first route with a value wins
    }
    return new ExactRun(byValue, end);
  }

  /** The value a route's one header must equal, when the route has the run's shape; else null. */
  private static @Nullable String exactValue(RouteEntry e) {
    if (e.headers.length != 1 || !e.fractionAlwaysMatches()) {
      return null;
    }
    HeaderMatcher h = e.headers[0];
    if (h.invert() || h.treatMissingAsEmpty() || !(h.match() instanceof HeaderMatcher.StringMatch s)
        || !(s.matcher() instanceof StringMatcher.Exact exact) || exact.ignoreCase()) {
      return null;
    }
    return exact.value();
  }

  /** The route of the run a call's header value picks; null for none (nor for an absent header). */
  @Nullable RouteEntry match(@Nullable String value) {
    return value == null ? null : byValue.get(value);
  }

  /** The index of the first route after the run. */
  int end() {
    return end;
  }
}
