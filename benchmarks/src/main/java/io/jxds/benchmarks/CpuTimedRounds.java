package io.jxds.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The loop of the CPU-time cross-checks for busy machines ({@link PickCpuRatio},
 * {@link RouteCpuRatio}, {@link RoutedCallCpuRatio}): batches of each operation in turn, round
 * after round (the first quarter warming up), timed by a CPU clock, so time descheduled by other
 * processes does not count; printed per operation at the 10th percentile and the median of the
 * rounds, with the ratios to the first operation, the baseline.
 */
final class CpuTimedRounds {
  private CpuTimedRounds() {}

  /**
   * Times {@code ops} and prints the table.
   *
   * @param ops the operations by name, the baseline first
   * @param consume what keeps an operation's result alive (summed into a printed sink)
   * @param rounds the measured rounds
   * @param batch the operations per batch
   * @param cpuNanos the CPU clock: the thread's, or the process's when other threads do the work
   * @param unit the printed unit, {@code "ns"} or {@code "µs"}
   */
  static <T> void run(Map<String, Supplier<T>> ops, ToLongFunction<T> consume, int rounds, int batch,
      LongSupplier cpuNanos, String unit) {
    double nanosPerUnit = unit.equals("µs") ? 1e3 : 1;
    Map<String, double[]> perOp = new LinkedHashMap<>();
    ops.keySet().forEach(name -> perOp.put(name, new double[rounds]));
    long sink = 0;
    for (int r = -rounds / 4; r < rounds; r++) {
      for (Map.Entry<String, Supplier<T>> e : ops.entrySet()) {
        Supplier<T> op = e.getValue();
        long start = cpuNanos.getAsLong();
        for (int i = 0; i < batch; i++) {
          sink += consume.applyAsLong(op.get());
        }
        long spent = cpuNanos.getAsLong() - start;
        if (r >= 0) {
          perOp.get(e.getKey())[r] = spent / nanosPerUnit / batch;
        }
      }
    }
    double baseP10 = 0;
    double baseMedian = 0;
    System.out.printf("%-32s %10s %10s %9s %9s%n", "operation", "p10 " + unit, "median " + unit, "p10 ×",
        "median ×");
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
