package io.jxds.benchmarks;

import com.google.protobuf.BytesValue;
import java.lang.management.ManagementFactory;
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
      CpuTimedRounds.run(ops, answer -> answer.getValue().size(), rounds, CALLS_PER_BATCH, os::getProcessCpuTime,
          "µs");
    } finally {
      bench.tearDown();
    }
  }
}
