package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.Change;
import io.jxds.toolkit.PlanDiff;

/** {@code ./jxds diff}'s output: a table, or the documented JSON ({@code jxds.diff/v1}). */
final class DiffOutput {
  static final String SCHEMA = "jxds.diff/v1";
  private static final FormatCache POINTS = new FormatCache("%+.3f points");

  private DiffOutput() {}

  static String tables(PlanDiff diff) {
    StringBuilder out = new StringBuilder();
    if (diff.isEmpty()) {
      return "no change for traffic\n";
    }
    out.append("changes: ").append(diff.changes().size()).append('\n');
    Table t = new Table("  ", "CLUSTER", "KIND", "SUBJECT", "BEFORE", "AFTER", "CHANGE");
    t.rows(diff.changes().parallelStream().map(c -> new String[] {c.cluster(), c.kind().name(), c.subject(),
        c.before(), c.kind() == Change.Kind.NACK ? "NACKED" : c.after(),
        c.delta().map(d -> POINTS.format(d.toDouble() * 100)).orElse("")}).toList());
    t.print(out);
    for (Change c : diff.ofKind(Change.Kind.NACK)) {
      out.append("  NACK ").append(c.subject()).append(": ").append(c.after().substring("NACKED: ".length()))
          .append('\n');
    }
    return out.toString();
  }

  static String json(PlanDiff diff, int exitCode) {
    Json j = new Json().begin().string("schema", SCHEMA).number("exitCode", exitCode);
    j.beginArray("changes");
    for (Change c : diff.changes()) {
      j.beginElement().string("kind", c.kind().name()).string("cluster", c.cluster()).string("subject", c.subject())
          .string("before", c.before()).string("after", c.after());
      if (c.delta().isPresent()) {
        j.fraction("delta", c.delta().get());
      } else {
        j.nullValue("delta");
      }
      j.end();
    }
    j.endArray();
    return j.end().toString();
  }
}
