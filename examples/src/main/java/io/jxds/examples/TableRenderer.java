package io.jxds.examples;

import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import java.util.List;

/**
 * Renders one line per second, at most {@value #WIDTH} columns: time, script step, for each of
 * up to {@value #MAX_LOCALITIES} localities the share of answered RPCs it took (and of its first
 * two endpoints), RPC rate, failures and drops.
 *
 * <pre>
 *    t step p0 zone-a    p0 zone-b    p0 zone-c    p1 zone-d     rpc/s fail% drop%
 *            all  a1  a2  all  b1  b2  all  c1  c2  all  d1  d2
 *   7s    2   25  13  12   25  12  13   50  25  25    0   0   0  1500   0.0   0.0
 * </pre>
 */
final class TableRenderer {
  static final int WIDTH = 80;
  static final int MAX_LOCALITIES = 4;
  private static final int CELL = 13;

  /** The two header lines for {@code topology}. */
  List<String> header(Topology topology) {
    StringBuilder names = new StringBuilder("   t step");
    StringBuilder parts = new StringBuilder("         ");
    for (LocalityInfo l : shown(topology)) {
      names.append(pad(" p" + l.priority() + " " + l.label(), CELL));
      StringBuilder cell = new StringBuilder(" all");
      for (EndpointInfo e : firstTwo(l)) {
        cell.append(String.format("%4s", clip(e.label(), 3)));
      }
      parts.append(pad(cell.toString(), CELL));
    }
    names.append(String.format("%6s%6s%6s", "rpc/s", "fail%", "drop%"));
    return List.of(names.toString(), parts.toString().stripTrailing());
  }

  /** One row: {@code elapsedSeconds} since the start, the current step ("" for none). */
  String row(long elapsedSeconds, String step, Shares shares) {
    StringBuilder row = new StringBuilder(String.format("%3ds %4s", elapsedSeconds, clip(step, 4)));
    boolean any = shares.window().answeredTotal() > 0;
    for (LocalityInfo l : shown(shares.topology())) {
      StringBuilder cell = new StringBuilder(any ? String.format("%4d", Math.round(shares.locality(l
          .label()))) : "   -");
      for (EndpointInfo e : firstTwo(l)) {
        cell.append(any ? String.format("%4d", Math.round(shares.endpoint(e.label()))) : "   -");
      }
      row.append(pad(cell.toString(), CELL));
    }
    TrafficStats.Window w = shares.window();
    row.append(String.format("%6d%6.1f%6.1f", Math.round(w.rate()), w.failedPercent(), w.droppedPercent()));
    return row.toString();
  }

  private static List<LocalityInfo> shown(Topology topology) {
    List<LocalityInfo> all = topology.localities();
    return all.size() <= MAX_LOCALITIES ? all : all.subList(0, MAX_LOCALITIES);
  }

  private static List<EndpointInfo> firstTwo(LocalityInfo l) {
    return l.endpoints().size() <= 2 ? l.endpoints() : l.endpoints().subList(0, 2);
  }

  private static String pad(String s, int width) {
    String clipped = clip(s, width);
    return clipped + " ".repeat(width - clipped.length());
  }

  private static String clip(String s, int width) {
    return s.length() <= width ? s : s.substring(0, width);
  }
}
