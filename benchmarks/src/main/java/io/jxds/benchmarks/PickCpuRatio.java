package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A cross-check of {@link PickBenchmark} for busy machines: runs batches of picks of every
 * picker in turn, round after round, and compares their thread CPU time per pick (time spent
 * descheduled by other processes does not count) with grpc-java's round_robin over 1 000
 * subchannels at the 10th percentile and the median of the rounds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.PickCpuRatio 200
 * </pre>
 */
public final class PickCpuRatio {
  private static final int PICKS_PER_BATCH = 200_000;

  private PickCpuRatio() {}

  /** The benchmarks measured, the baseline first. */
  static Map<String, Supplier<PickResult>> pickers(PickBenchmark bench) {
    Map<String, Supplier<PickResult>> pickers = new LinkedHashMap<>();
    pickers.put("grpcRoundRobin (baseline)", bench::grpcRoundRobin);
    pickers.put("jxdsPriorityLocalityEndpoint", bench::jxdsPriorityLocalityEndpoint);
    pickers.put("jxdsLeastRequest", bench::jxdsLeastRequest);
    pickers.put("jxdsLeastRequestEqualWeights", bench::jxdsLeastRequestEqualWeights);
    pickers.put("jxdsRingHash", bench::jxdsRingHash);
    pickers.put("jxdsRingHashWeighted", bench::jxdsRingHashWeighted);
    pickers.put("jxdsRingHashRandom", bench::jxdsRingHashRandom);
    pickers.put("jxdsRingHashWeightedRandom", bench::jxdsRingHashWeightedRandom);
    pickers.put("jxdsMaglev", bench::jxdsMaglev);
    pickers.put("jxdsMaglevWeighted", bench::jxdsMaglevWeighted);
    return pickers;
  }

  /** Prints ns per pick (p10, median) and the ratio to the baseline; the argument is the rounds. */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    PickBenchmark bench = new PickBenchmark();
    bench.setUp();
    Map<String, Supplier<PickResult>> pickers = pickers(bench);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    Map<String, double[]> perPick = new LinkedHashMap<>();
    pickers.keySet().forEach(name -> perPick.put(name, new double[rounds]));
    long sink = 0;
    for (int r = -rounds / 4; r < rounds; r++) { // the first quarter warms up
      for (Map.Entry<String, Supplier<PickResult>> e : pickers.entrySet()) {
        Supplier<PickResult> picker = e.getValue();
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < PICKS_PER_BATCH; i++) {
          sink += System.identityHashCode(picker.get().getSubchannel()) & 1;
        }
        long spent = cpu.getCurrentThreadCpuTime() - start;
        if (r >= 0) {
          perPick.get(e.getKey())[r] = (double) spent / PICKS_PER_BATCH;
        }
      }
    }
    double baseP10 = 0;
    double baseMedian = 0;
    System.out.printf("%-32s %10s %10s %8s%n", "picker", "p10 ns", "median ns", "ratio");
    for (Map.Entry<String, double[]> e : perPick.entrySet()) {
      double[] v = e.getValue();
      Arrays.sort(v);
      double p10 = v[rounds / 10];
      double median = v[rounds / 2];
      if (baseMedian == 0) {
        baseP10 = p10;
        baseMedian = median;
      }
      System.out.printf("%-32s %10.1f %10.1f %7.2fx%n", e.getKey(), p10, median, median / baseMedian);
    }
    System.out.println("(p10 ratio to baseline uses " + String.format("%.1f", baseP10) + " ns; sink " + (sink & 1)
        + ")");
  }
}
