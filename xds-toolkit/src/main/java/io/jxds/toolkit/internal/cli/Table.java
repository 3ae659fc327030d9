package io.jxds.toolkit.internal.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** Rows of cells printed with aligned columns, two spaces apart. */
final class Table {
  /** Rows per chunk when a large table is written in parallel. */
  static final int CHUNK = 2048;

  private final List<String[]> rows = new ArrayList<>();
  private final String indent;

  Table(String indent, String... header) {
    this.indent = indent;
    rows.add(header);
  }

  Table row(String... cells) {
    rows.add(cells);
    return this;
  }

  /** Rows in order. */
  Table rows(List<String[]> more) {
    rows.addAll(more);
    return this;
  }

  void print(StringBuilder out) {
    int columns = 0;
    for (String[] r : rows) {
      columns = Math.max(columns, r.length);
    }
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    if (rows.size() < CHUNK * 2) {
      for (String[] r : rows) {
        line(r, width, out);
      }
      return;
    }
    // A large table (a diff's changes): its lines are written in chunks, in parallel, then in order.
    IntStream.range(0, (rows.size() + CHUNK - 1) / CHUNK).parallel().mapToObj(k -> {
      StringBuilder lines = new StringBuilder();
      for (int i = k * CHUNK; i < Math.min(rows.size(), (k + 1) * CHUNK); i++) {
        line(rows.get(i), width, lines);
      }
      return lines;
    }).forEachOrdered(out::append);
  }

  private void line(String[] r, int[] width, StringBuilder out) {
    int lineStart = out.length();
    out.append(indent);
    for (int i = 0; i < r.length; i++) {
      out.append(r[i]);
      if (i < r.length - 1) {
        for (int pad = width[i] - r[i].length() + 2; pad > 0; pad--) {
          out.append(' ');
        }
      }
    }
    // The line without trailing white space (String.stripTrailing's rule), written in place.
    int end = out.length();
    while (end > lineStart && Character.isWhitespace(out.charAt(end - 1))) {
      end--;
    }
    out.setLength(end);
    out.append('\n');
  }
}
