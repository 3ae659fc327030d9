package io.jxds.soak;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** The figures of one run: operations, restarts, RPCs, failures by cause, convergence, heap and threads. */
final class SoakReport {
  final Map<String, Integer> opsByKind = new TreeMap<>();
  int ops;
  int controlPlaneRestarts;
  final LongAdder rpcs = new LongAdder();
  final LongAdder succeeded = new LongAdder();
  final LongAdder dropped = new LongAdder();
  final Map<String, LongAdder> failuresByCause = new ConcurrentHashMap<>();
  final List<Long> convergeMillis = new ArrayList<>();
  /** Per sick-backend episode: when, after it turned sick, the last RPC that reached it started. */
  final List<Long> sickLastHitMillis = new ArrayList<>();
  /** (elapsed ms, value) samples. */
  final List<long[]> threads = new ArrayList<>();
  final List<long[]> heapBytes = new ArrayList<>();
  long streamsOpened;
  int stickySamples;
  int retryGuards;
  long elapsedMillis;

  void count(RpcResult r) {
    rpcs.increment();
    if (r.ok()) {
      succeeded.increment();
    } else if (r.dropped()) {
      dropped.increment();
    } else {
      failuresByCause.computeIfAbsent(r.cause(), k -> new LongAdder()).increment();
    }
  }

  static long percentile(List<Long> values, double p) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  /** The median of the samples taken in [from, to) of the run, by elapsed time. */
  static long medianBetween(List<long[]> samples, long fromMillis, long toMillis) {
    List<Long> in = new ArrayList<>();
    for (long[] s : samples) {
      if (s[0] >= fromMillis && s[0] < toMillis) {
        in.add(s[1]);
      }
    }
    return percentile(in, 0.5);
  }

  String render(SoakConfig config, long setupEndMillis) {
    long q = Math.max(0, elapsedMillis - setupEndMillis) / 4;
    StringBuilder s = new StringBuilder();
    s.append(String
        .format("soak %s seed %d: %d operations in %.1f s, %d control-plane restarts, %d ADS streams opened%n",
        config.mode(), config.seed(), ops, elapsedMillis / 1000.0, controlPlaneRestarts, streamsOpened));
    s.append("  operations: ").append(opsByKind).append('\n');
    long failed = rpcs.sum() - succeeded.sum() - dropped.sum();
    s.append(String.format("  RPCs: %d, succeeded %d, dropped by drop_overloads %d, failed %d%n",
        rpcs.sum(), succeeded.sum(), dropped.sum(), failed));
    new TreeMap<>(failuresByCause).forEach((cause, n) -> s.append(String.format("    %8d  %s%n", n.sum(), cause)));
    s.append(String.format("  converge after an operation: median %d ms, p99 %d ms, max %d ms (%d operations)%n",
        percentile(convergeMillis, 0.5), percentile(convergeMillis, 0.99), percentile(convergeMillis, 1.0),
        convergeMillis.size()));
    s.append(String.format("  per-route invariants: %d channel-kills under a retrying route (no failure allowed), %d"
        + " samples of a hash key on a RING_HASH cluster%n", retryGuards, stickySamples));
    if (!sickLastHitMillis.isEmpty()) {
      s.append(String.format("  sick backends: %d episodes; last RPC to the sick backend started after median %d ms,"
          + " max %d ms (bound %d ms)%n", sickLastHitMillis.size(), percentile(sickLastHitMillis, 0.5),
          percentile(sickLastHitMillis, 1.0), TimeUnit.NANOSECONDS.toMillis(Ejections.BOUND_NANOS)));
    }
    if (!heapBytes.isEmpty()) {
      s.append(String
          .format("  heap used after GC: start %.1f MB, end %.1f MB; after setup: first-quarter median %.1f MB, "
              + "last-quarter median %.1f MB%n",
          heapBytes.get(0)[1] / 1e6, heapBytes.get(heapBytes.size() - 1)[1] / 1e6,
          medianBetween(heapBytes, setupEndMillis, setupEndMillis + q) / 1e6,
          medianBetween(heapBytes, setupEndMillis + 3 * q, Long.MAX_VALUE) / 1e6));
    }
    if (!threads.isEmpty()) {
      s.append(String
          .format("  threads: start %d, end %d; after setup: first-quarter median %d, last-quarter median %d%n",
          threads.get(0)[1], threads.get(threads.size() - 1)[1],
          medianBetween(threads, setupEndMillis, setupEndMillis + q),
          medianBetween(threads, setupEndMillis + 3 * q, Long.MAX_VALUE)));
    }
    return s.toString();
  }
}
