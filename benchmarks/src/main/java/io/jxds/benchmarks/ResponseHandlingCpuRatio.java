package io.jxds.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A cross-check of {@link ResponseHandlingBenchmark} for busy machines: runs the client's handling
 * and both baselines alternately on the same bytes and compares their thread CPU time (time spent
 * descheduled by other processes does not count), at the 10th percentile and the median.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.ResponseHandlingCpuRatio 300
 * </pre>
 */
public final class ResponseHandlingCpuRatio {
  private ResponseHandlingCpuRatio() {}

  /** One row: p10 and median thread CPU time in microseconds of handle and both baselines. */
  record Figures(String what, long[] handle, long[] unpack, long[] parse) {
    String format() {
      int p10 = handle.length / 10;
      int median = handle.length / 2;
      return String.format(
          "%s p10:    handle %6.0f us, parseFrom+unpack %6.0f us (ratio %.2f), parseFrom+parse %6.0f us (ratio %.2f)%n"
              + "%s median: handle %6.0f us, parseFrom+unpack %6.0f us (ratio %.2f), parseFrom+parse %6.0f us (ratio "
                  + "%.2f)",
          what, handle[p10] / 1e3, unpack[p10] / 1e3, (double) handle[p10] / unpack[p10], parse[p10] / 1e3,
          (double) handle[p10] / parse[p10],
          what, handle[median] / 1e3, unpack[median] / 1e3, (double) handle[median] / unpack[median],
          parse[median] / 1e3, (double) handle[median] / parse[median]);
    }

    double medianRatioToParse() {
      return (double) handle[handle.length / 2] / parse[parse.length / 2];
    }
  }

  interface Op {
    long run() throws Exception;
  }

  static Figures[] measure(ResponseHandlingBenchmark.ClientState s, int rounds) throws Exception {
    ResponseHandlingBenchmark b = new ResponseHandlingBenchmark();
    return new Figures[] {
      measure("CDS", rounds, () -> b.cdsHandle(s), () -> b.cdsBaselineUnpack(s), () -> b.cdsBaselineParse(s)),
      measure("EDS", rounds, () -> b.edsHandle(s), () -> b.edsBaselineUnpack(s), () -> b.edsBaselineParse(s))
    };
  }

  private static Figures measure(String what, int rounds, Op handle, Op unpack, Op parse) throws Exception {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long[][] t = new long[3][rounds];
    Op[] ops = {handle, unpack, parse};
    long sink = 0;
    for (int warm = 0; warm < rounds / 5 + 1; warm++) {
      for (Op op : ops) {
        sink += op.run();
      }
    }
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < 3; i++) {
        long start = cpu.getCurrentThreadCpuTime();
        sink += ops[i].run();
        t[i][r] = cpu.getCurrentThreadCpuTime() - start;
      }
    }
    if (sink == 42) {
      System.out.print("");
    }
    for (long[] a : t) {
      Arrays.sort(a);
    }
    return new Figures(what, t[0], t[1], t[2]);
  }

  /** Prints the figures; the argument is the number of rounds (default 300). */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    ResponseHandlingBenchmark.ClientState s = new ResponseHandlingBenchmark.ClientState();
    s.clusters = 10_000;
    s.endpoints = 10_000;
    s.setUp();
    try {
      for (Figures f : measure(s, rounds)) {
        System.out.println(f.format());
      }
    } finally {
      s.tearDown();
    }
  }
}
