package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A cross-check of {@link RouteMatchBenchmark} for busy machines, as {@link PickCpuRatio} is of
 * {@link PickBenchmark}: batches of each operation in turn, round after round, compared by thread
 * CPU time per operation (time descheduled by other processes does not count) with the bare
 * {@code xds_cluster} pick, at the 10th percentile and the median of the rounds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.RouteCpuRatio 200
 * </pre>
 */
public final class RouteCpuRatio {
  private static final int OPS_PER_BATCH = 100_000;

  private RouteCpuRatio() {}

  /** Prints ns per operation (p10, median) and the ratios to the pick; the argument is the rounds. */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    RouteMatchBenchmark bench = new RouteMatchBenchmark();
    bench.setUp();
    Map<String, Supplier<PickResult>> ops = new LinkedHashMap<>();
    ops.put("xdsClusterPick (baseline)", bench::xdsClusterPick);
    ops.put("oneRoute", bench::oneRoute);
    ops.put("tenHeaderRoutes", bench::tenHeaderRoutes);
    ops.put("tenPathRoutes", bench::tenPathRoutes);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    Map<String, double[]> perOp = new LinkedHashMap<>();
    ops.keySet().forEach(name -> perOp.put(name, new double[rounds]));
    long sink = 0;
    for (int r = -rounds / 4; r < rounds; r++) { // the first quarter warms up
      for (Map.Entry<String, Supplier<PickResult>> e : ops.entrySet()) {
        Supplier<PickResult> op = e.getValue();
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < OPS_PER_BATCH; i++) {
          sink += System.identityHashCode(op.get().getSubchannel()) & 1;
        }
        long spent = cpu.getCurrentThreadCpuTime() - start;
        if (r >= 0) {
          perOp.get(e.getKey())[r] = (double) spent / OPS_PER_BATCH;
        }
      }
    }
    double baseP10 = 0;
    double baseMedian = 0;
    System.out.printf("%-28s %10s %10s %9s %9s%n", "operation", "p10 ns", "median ns", "p10 ×", "median ×");
    for (Map.Entry<String, double[]> e : perOp.entrySet()) {
      double[] v = e.getValue();
      Arrays.sort(v);
      double p10 = v[rounds / 10];
      double median = v[rounds / 2];
      if (baseMedian == 0) {
        baseP10 = p10;
        baseMedian = median;
      }
      System.out.printf("%-28s %10.1f %10.1f %8.2fx %8.2fx%n", e.getKey(), p10, median, p10 / baseP10,
          median / baseMedian);
    }
    System.out.println("(sink " + (sink & 1) + ")");
  }
}
