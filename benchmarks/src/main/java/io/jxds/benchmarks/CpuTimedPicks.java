package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The loop of the CPU-time cross-checks ({@link PickCpuRatio}, {@link RouteCpuRatio}) for busy
 * machines: batches of each operation in turn, round after round (the first quarter warming up),
 * timed by the thread's CPU time, so time descheduled by other processes does not count; printed
 * per operation at the 10th percentile and the median of the rounds, with the ratios to the first
 * operation, the baseline.
 */
final class CpuTimedPicks {
  private CpuTimedPicks() {}

  /**
   * Times {@code ops} and prints the table.
   *
   * @param ops the operations by name, the baseline first
   * @param rounds the measured rounds
   * @param batch the operations per batch
   */
  static void run(Map<String, Supplier<PickResult>> ops, int rounds, int batch) {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    Map<String, double[]> perOp = new LinkedHashMap<>();
    ops.keySet().forEach(name -> perOp.put(name, new double[rounds]));
    long sink = 0;
    for (int r = -rounds / 4; r < rounds; r++) {
      for (Map.Entry<String, Supplier<PickResult>> e : ops.entrySet()) {
        Supplier<PickResult> op = e.getValue();
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < batch; i++) {
          sink += System.identityHashCode(op.get().getSubchannel()) & 1;
        }
        long spent = cpu.getCurrentThreadCpuTime() - start;
        if (r >= 0) {
          perOp.get(e.getKey())[r] = (double) spent / batch;
        }
      }
    }
    double baseP10 = 0;
    double baseMedian = 0;
    System.out.printf("%-32s %10s %10s %9s %9s%n", "operation", "p10 ns", "median ns", "p10 ×", "median ×");
    for (Map.Entry<String, double[]> e : perOp.entrySet()) {
      double[] v = e.getValue();
      Arrays.sort(v);
      double p10 = v[rounds / 10];
      double median = v[rounds / 2];
      if (baseMedian == 0) {
        baseP10 = p10;
        baseMedian = median;
      }
      System.out.printf("%-32s %10.1f %10.1f %8.2fx %8.2fx%n", e.getKey(), p10, median, p10 / baseP10,
          median / baseMedian);
    }
    System.out.println("(sink " + (sink & 1) + ")");
  }
}
