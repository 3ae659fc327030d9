package io.jxds.benchmarks;

import com.google.protobuf.BytesValue;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A cross-check of {@link RoutedCallBenchmark} for busy machines: batches of calls on each channel
 * in turn, round after round, compared by the CPU time the whole process spent per call (client,
 * backend and control plane share the JVM; time descheduled by other processes does not count),
 * at the 10th percentile and the median of the rounds, against {@code xds-cluster:///}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.RoutedCallCpuRatio 40
 * </pre>
 */
public final class RoutedCallCpuRatio {
  private static final int CALLS_PER_BATCH = 2_000;

  private RoutedCallCpuRatio() {}

  /** Prints µs of CPU per call (p10, median) and the ratios; the argument is the rounds. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    RoutedCallBenchmark bench = new RoutedCallBenchmark();
    bench.setUp();
    try {
      Map<String, Supplier<BytesValue>> ops = new LinkedHashMap<>();
      ops.put("clusterCall (baseline)", bench::clusterCall);
      ops.put("oneRouteCall", bench::oneRouteCall);
      ops.put("tenHeaderRoutesCall", bench::tenHeaderRoutesCall);
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      Map<String, double[]> perCall = new LinkedHashMap<>();
      ops.keySet().forEach(name -> perCall.put(name, new double[rounds]));
      long sink = 0;
      for (int r = -rounds / 4; r < rounds; r++) { // the first quarter warms up
        for (Map.Entry<String, Supplier<BytesValue>> e : ops.entrySet()) {
          long start = os.getProcessCpuTime();
          for (int i = 0; i < CALLS_PER_BATCH; i++) {
            sink += e.getValue().get().getValue().size();
          }
          long spent = os.getProcessCpuTime() - start;
          if (r >= 0) {
            perCall.get(e.getKey())[r] = spent / 1e3 / CALLS_PER_BATCH;
          }
        }
      }
      double baseP10 = 0;
      double baseMedian = 0;
      System.out.printf("%-24s %10s %10s %9s %9s%n", "channel", "p10 µs", "median µs", "p10 ×", "median ×");
      for (Map.Entry<String, double[]> e : perCall.entrySet()) {
        double[] v = e.getValue();
        Arrays.sort(v);
        double p10 = v[rounds / 10];
        double median = v[rounds / 2];
        if (baseMedian == 0) {
          baseP10 = p10;
          baseMedian = median;
        }
        System.out.printf("%-24s %10.1f %10.1f %8.2fx %8.2fx%n", e.getKey(), p10, median, p10 / baseP10,
            median / baseMedian);
      }
      System.out.println("(sink " + (sink & 1) + ")");
    } finally {
      bench.tearDown();
    }
  }
}
