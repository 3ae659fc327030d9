package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
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
    CpuTimedRounds.run(pickers, pick -> System.identityHashCode(pick.getSubchannel()) & 1, rounds, PICKS_PER_BATCH,
        ManagementFactory.getThreadMXBean()::getCurrentThreadCpuTime, "ns");
  }
}
