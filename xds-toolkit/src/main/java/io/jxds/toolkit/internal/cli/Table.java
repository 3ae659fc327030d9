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
}
