package io.jxds.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One soak run's parameters.
 *
 * @param mode the control plane: java-control-plane or FakeAdsServer
 * @param seed the seed of the operation sequence
 * @param duration the run stops starting operations after this long
 * @param maxOps and after this many operations
 * @param skip operation kinds (and pseudo-kinds of {@link OpGenerator}) never generated
 * @param assertHeap whether heap growth fails the run (long runs); else it is only reported
 * @param delta whether the client speaks delta xDS to the control plane (server feature
 *     {@code jxds.delta}) rather than state of the world
 */
record SoakConfig(Mode mode, long seed, Duration duration, int maxOps, Set<String> skip, boolean assertHeap,
    boolean delta) {
  enum Mode { JCP, FAKE }

  static final int CLUSTERS = 6;
  static final int BACKENDS = 24;
  /** Spare backends after the 24, for the LOGICAL_DNS cluster alone. */
  static final int DNS_BACKENDS = 2;

  SoakConfig {
    skip = Set.copyOf(skip);
  }

  /** {@code jxds.soak.skip}: comma-separated kinds, for example {@code recycle-streams,delete-cluster}. */
  static Set<String> parseSkip(String text) {
    Set<String> out = new LinkedHashSet<>();
    if (text != null) {
      Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
    }
    return out;
  }

  /**
   * {@code jxds.soak.seed}: one seed ({@code 42}), a comma-separated list ({@code 2026,2031}), a
   * range ({@code 2026-2030}, both ends included), or a list of both ({@code 7,2026-2030}).
   */
  static List<Long> parseSeeds(String text) {
    List<Long> out = new ArrayList<>();
    for (String part : text.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      int dash = p.indexOf('-', 1); // a leading '-' is a negative seed
      if (dash < 0) {
        out.add(Long.parseLong(p));
        continue;
      }
      long from = Long.parseLong(p.substring(0, dash).trim());
      long to = Long.parseLong(p.substring(dash + 1).trim());
      if (to < from || to - from > 10_000) {
        throw new IllegalArgumentException("jxds.soak.seed range must be FROM-TO with FROM <= TO: " + p);
      }
      for (long s = from; s <= to; s++) {
        out.add(s);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("jxds.soak.seed names no seed: " + text);
    }
    return out;
  }

  /** {@code 90s}, {@code 30m}, {@code 2h} or plain seconds. */
  static Duration parseDuration(String text) {
    String t = text.trim().toLowerCase();
    if (t.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
    }
    char unit = t.charAt(t.length() - 1);
    if (Character.isDigit(unit)) {
      return Duration.ofSeconds(Long.parseLong(t));
    }
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return switch (unit) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> throw new IllegalArgumentException("duration like 90s, 30m or 2h: " + text);
    };
  }

  String replayCommand(int ops) {
    return "mvn -B -pl soak -am verify -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false"
        + " -Djxds.soak.mode=" + mode.name().toLowerCase() + " -Djxds.soak.seed=" + seed
        + (ops == Integer.MAX_VALUE ? "" : " -Djxds.soak.ops=" + ops)
        + " -Djxds.soak.duration=" + Math.max(duration.toSeconds(), 60) + "s"
        + (skip.isEmpty() ? "" : " -Djxds.soak.skip=" + String.join(",", skip))
        + " -Djxds.soak.protocol=" + (delta ? "delta" : "sotw");
  }
}
