package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A cross-check of {@link PerRouteBenchmark} for busy machines: batches of each operation in turn,
 * round after round in one JVM, compared by thread CPU time per call (time descheduled by other
 * processes does not count), at the 10th percentile and the median of the rounds. Two tables: a
 * route with a timeout, a retry policy and a header hash policy against a route with none (target
 * ≤ 1.3×); a route's header hash pick against the application's {@code REQUEST_HASH} pick set per
 * call (target ≤ 1.2×), with the bare pick and the parts for reference.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.PerRouteCpuRatio 100
 * </pre>
 */
public final class PerRouteCpuRatio {
  private static final int CALLS_PER_BATCH = 100_000;

  private PerRouteCpuRatio() {}

  /** Prints ns of CPU per call (p10, median) and the ratios; the argument is the rounds. */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    PerRouteBenchmark bench = new PerRouteBenchmark();
    bench.setUp();
    Map<String, Supplier<PickResult>> routes = new LinkedHashMap<>();
    routes.put("routeNone (baseline)", bench::routeNone);
    routes.put("routeTimeoutRetryHash", bench::routeTimeoutRetryHash);
    run(routes, rounds);
    Map<String, Supplier<PickResult>> hashes = new LinkedHashMap<>();
    hashes.put("requestHashPickPerCall (baseline)", bench::requestHashPickPerCall);
    hashes.put("routeHeaderHashPick", bench::routeHeaderHashPick);
    hashes.put("requestHashPickRouted", bench::requestHashPickRouted);
    hashes.put("requestHashPick", bench::requestHashPick);
    hashes.put("hashHeaderPick", bench::hashHeaderPick);
    hashes.put("partHeaderRead + requestHashPick",
        () -> bench.partHeaderRead() == null ? null : bench.requestHashPick());
    run(hashes, rounds);
  }

  private static void run(Map<String, Supplier<PickResult>> ops, int rounds) {
    CpuTimedRounds.run(ops, pick -> pick == null ? 0 : System.identityHashCode(pick.getSubchannel()) & 1, rounds,
        CALLS_PER_BATCH, ManagementFactory.getThreadMXBean()::getCurrentThreadCpuTime, "ns");
  }
}
