package io.jxds.examples;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a step expects to see in its measurement window, as a list of checks; each failed check
 * becomes one human-readable problem. Tolerances are wide enough that a correct system never
 * misses them: shares come from a deterministic weighted round robin (off by well under a point),
 * drops are random (10 % of 1,500 RPCs has a standard deviation under 0.8 points; the tolerance
 * is 4 points, more than 5 standard deviations).
 */
final class Expect {
  /** Share tolerance in percentage points for localities and endpoints. */
  static final double SHARE_TOLERANCE = 5;
  /** Drop-rate tolerance in percentage points. */
  static final double DROP_TOLERANCE = 4;
  /**
   * Failure-rate tolerance in percentage points: a flaky backend fails every other RPC it gets and
   * its share comes from the same weighted round robin, so the rate is near exact.
   */
  static final double FAILURE_TOLERANCE = 3;

  private final List<Check> checks = new ArrayList<>();
  private final List<Function<Shares, String>> notes = new ArrayList<>();
  private String taggedLabel; // the locality the RPCs with the header are checked against, or null

  /** One check: a problem description, or null when it holds. */
  interface Check {
    String problem(Shares shares, TrafficStats stats);
  }

  static Expect that() {
    return new Expect();
  }

  /** A locality takes {@code percent} % of the answered RPCs. */
  Expect locality(String label, double percent) {
    return check((s, t) -> near(label, s.locality(label), percent, SHARE_TOLERANCE));
  }

  /** An endpoint takes {@code percent} % of the answered RPCs. */
  Expect endpoint(String label, double percent) {
    return check((s, t) -> near(label, s.endpoint(label), percent, SHARE_TOLERANCE));
  }

  /**
   * Every answered RPC that carried the header ({@link TrafficGenerator}) came from this locality,
   * and some did.
   */
  Expect taggedOnly(String label) {
    taggedLabel = label;
    return check((s, t) -> s.window().taggedTotal() == 0 ? "no RPC with the header was answered"
        : s.taggedLocality(label) == 100 ? null
            : String.format("RPCs with the header: %s %.1f%%, expected 100%%", label, s.taggedLocality(label)));
  }

  /** A locality takes {@code percent} % of the answered RPCs that did not carry the header. */
  Expect untaggedLocality(String label, double percent) {
    taggedLabel = taggedLabel == null ? label : taggedLabel;
    return check((s, t) -> near("RPCs without the header: " + label, s.untaggedLocality(label), percent,
        SHARE_TOLERANCE));
  }

  /**
   * The locality whose shares of the RPCs with and without the header are checked (the first named),
   * or null.
   */
  String taggedLabel() {
    return taggedLabel;
  }

  /** What the step's summary line adds to the shares: the users' backends, for a sticky step. */
  List<String> notes(Shares shares) {
    return notes.stream().map(n -> n.apply(shares)).toList();
  }

  /** Every answered RPC came from this priority. */
  Expect onlyPriority(int priority) {
    return check((s, t) -> s.window().answeredTotal() == 0
        ? "no RPC was answered"
        : s.priority(priority) == 100 ? null
            : String.format("priority %d answered %.1f%%, expected 100%%", priority, s.priority(priority)));
  }

  /**
   * About {@code percent} % of RPCs failed, and the last failure's description contains {@code
   * text}.
   */
  Expect failures(double percent, String text) {
    return check((s, t) -> {
      String rate = near("failures", s.window().failedPercent(), percent, FAILURE_TOLERANCE);
      if (rate != null) {
        return rate;
      }
      Status last = t.lastFailure();
      return last != null && last.getDescription() != null && last.getDescription().contains(text) ? null
          : "expected failures naming \"" + text + "\", last: " + describe(last);
    });
  }

  /** The endpoint answered some RPCs (at least one). */
  Expect answers(String label) {
    return check((s, t) -> s.answered(label) > 0 ? null : label + " answered no RPC, expected some");
  }

  /** The endpoint answered no RPC at all. */
  Expect silent(String label) {
    return check((s, t) -> s.answered(label) == 0 ? null
        : String.format("%s answered %d RPCs (%.1f%%), expected none", label, s.answered(label), s.endpoint(label)));
  }

  /**
   * Sticky routing by user ({@link TrafficGenerator#USER_HEADER}): every user with answered RPCs had
   * them all answered by one backend, at least {@code users} users were answered, and they did not
   * all land on the same backend.
   */
  Expect stickyUsers(int users) {
    notes.add(Shares::describeUsers);
    return check((s, t) -> {
      Map<String, Map<String, Long>> byUser = s.window().users();
      for (var e : new TreeMap<>(byUser).entrySet()) {
        if (e.getValue().size() > 1) {
          return "the calls of " + e.getKey() + " landed on " + e.getValue().size() + " backends: "
              + s.labelled(e.getValue());
        }
      }
      if (byUser.size() < users) {
        return byUser.size() + " users answered, expected " + users;
      }
      Set<String> backends = new HashSet<>();
      byUser.values().forEach(m -> backends.addAll(m.keySet()));
      return backends.size() > 1 ? null : "every user on the same backend " + s.labelled(byUser.values().iterator()
          .next());
    });
  }

  /** No RPC failed (drops aside). */
  Expect noFailures() {
    return check((s, t) -> s.window().failed() == 0 ? null
        : s.window().failed() + " RPCs failed, expected none; last: " + describe(t.lastFailure()));
  }

  /** About {@code percent} % of RPCs were dropped (0: none at all). */
  Expect drops(double percent) {
    return check((s, t) -> {
      double dropped = s.window().droppedPercent();
      if (percent == 0) {
        return s.window().dropped() == 0 ? null : s.window().dropped() + " RPCs dropped, expected none";
      }
      return near("drops", dropped, percent, DROP_TOLERANCE);
    });
  }

  /**
   * Every RPC failed fast and clearly: none answered or dropped, and the last failure is
   * UNAVAILABLE with a description containing {@code text}.
   */
  Expect allFailWith(String text) {
    return check((s, t) -> {
      TrafficStats.Window w = s.window();
      if (w.failed() == 0 || w.answeredTotal() > 0 || w.dropped() > 0) {
        return String.format("expected every RPC to fail; %d answered, %d dropped, %d failed",
            w.answeredTotal(), w.dropped(), w.failed());
      }
      Status last = t.lastFailure();
      boolean clear = last != null && last.getCode() == Status.Code.UNAVAILABLE
          && last.getDescription() != null && last.getDescription().contains(text);
      return clear ? null : "expected UNAVAILABLE naming \"" + text + "\", got " + describe(last);
    });
  }

  /** The problems found in a window; empty when every check holds. */
  List<String> problems(Shares shares, TrafficStats stats) {
    List<String> problems = new ArrayList<>();
    for (Check c : checks) {
      String p = c.problem(shares, stats);
      if (p != null) {
        problems.add(p);
      }
    }
    return problems;
  }

  private Expect check(Check c) {
    checks.add(c);
    return this;
  }

  private static String near(String what, double actual, double expected, double tolerance) {
    return Math.abs(actual - expected) <= tolerance ? null
        : String.format("%s %.1f%%, expected %.1f%% +/- %.0f", what, actual, expected, tolerance);
  }

  static String describe(Status status) {
    return status == null ? "none" : status.getCode() + ": " + status.getDescription();
  }
}
