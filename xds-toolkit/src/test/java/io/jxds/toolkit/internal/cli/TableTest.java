package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Aligned columns, two spaces apart, no white space at a line's end (cells ending in it included). */
class TableTest {
  private static final String[] CELLS = {"", "a", "svc-1", "LOCALITY_SHARE", " ", "x\t", "tab\tin", "\u2003", "é",
      "+16.667 points", "\ud83d\ude00"};

  @Test
  void printsAsPaddingEachLineAndStrippingItsEnd() {
    SplittableRandom random = new SplittableRandom(25);
    for (int n = 0; n < 2_000; n++) {
      int columns = 1 + random.nextInt(6);
      List<String[]> rows = new ArrayList<>();
      for (int r = 0; r < 1 + random.nextInt(5); r++) {
        String[] row = new String[random.nextInt(4) == 0 ? random.nextInt(columns + 1) : columns];
        for (int c = 0; c < row.length; c++) {
          row[c] = CELLS[random.nextInt(CELLS.length)];
        }
        rows.add(row);
      }
      String indent = random.nextBoolean() ? "  " : "";
      Table table = new Table(indent, rows.get(0));
      rows.subList(1, rows.size()).forEach(table::row);
      StringBuilder out = new StringBuilder("before\n");
      table.print(out);
      assertThat(out.toString()).isEqualTo("before\n" + reference(indent, rows));
    }
  }

  @Test
  void aLargeTableWrittenInParallelChunksIsTheSame() {
    SplittableRandom random = new SplittableRandom(26);
    List<String[]> rows = new ArrayList<>();
    for (int r = 0; r < Table.CHUNK * 5 + 17; r++) {
      String[] row = new String[4];
      for (int c = 0; c < row.length; c++) {
        row[c] = CELLS[random.nextInt(CELLS.length)] + (random.nextInt(50) == 0 ? "x".repeat(40) : "");
      }
      rows.add(row);
    }
    Table table = new Table("  ", rows.get(0)).rows(rows.subList(1, rows.size()));
    StringBuilder out = new StringBuilder("before\n");
    table.print(out);
    assertThat(out.toString()).isEqualTo("before\n" + reference("  ", rows));
  }

  @Test
  void alignsColumns() {
    StringBuilder out = new StringBuilder();
    new Table("  ", "CLUSTER", "KIND").row("svc-10", "STATE").row("a", "").print(out);
    assertThat(out).hasToString("  CLUSTER  KIND\n  svc-10   STATE\n  a\n");
  }

  /** Each line built whole, then String.stripTrailing. */
  private static String reference(String indent, List<String[]> rows) {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
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
    return out.toString();
  }
}
