package io.jxds.toolkit.internal.cli;

import java.util.ArrayList;
import java.util.List;

/** Rows of cells printed with aligned columns, two spaces apart. */
final class Table {
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
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < r.length; i++) {
        line.append(r[i]);
        if (i < r.length - 1) {
          line.append(" ".repeat(width[i] - r[i].length() + 2));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
