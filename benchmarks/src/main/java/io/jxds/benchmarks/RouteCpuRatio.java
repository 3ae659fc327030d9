package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
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
    CpuTimedRounds.run(ops, pick -> System.identityHashCode(pick.getSubchannel()) & 1, rounds, OPS_PER_BATCH,
        ManagementFactory.getThreadMXBean()::getCurrentThreadCpuTime, "ns");
  }
}
