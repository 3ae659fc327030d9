package io.jxds.benchmarks;

import com.google.protobuf.UnsafeByteOperations;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.decode.EndpointsDecoder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A cross-check of {@link DecodeBenchmark} for busy machines: alternates parse and decode of the
 * same bytes and compares their thread CPU time (not wall time, so time spent descheduled by other
 * processes does not count) at the 10th percentile and the median.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.DecodeCpuRatio 3000
 * </pre>
 */
public final class DecodeCpuRatio {
  private DecodeCpuRatio() {}

  /** Parse and decode alternately {@code rounds} times; returns {p10 ratio, median ratio}. */
  static double[] measure(int rounds) throws Exception {
    byte[] bytes = DecodeBenchmark.largeAssignment().toByteArray();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long[] parse = new long[rounds];
    long[] decode = new long[rounds];
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      long start = cpu.getCurrentThreadCpuTime();
      sink += ClusterLoadAssignment.parseFrom(bytes).getEndpointsCount();
      parse[r] = cpu.getCurrentThreadCpuTime() - start;
      start = cpu.getCurrentThreadCpuTime();
      sink += decode(bytes);
      decode[r] = cpu.getCurrentThreadCpuTime() - start;
    }
    if (sink != 300L * rounds) {
      throw new AssertionError("unexpected decode result " + sink);
    }
    Arrays.sort(parse);
    Arrays.sort(decode);
    int p10 = rounds / 10;
    int median = rounds / 2;
    return new double[] {
      parse[p10] / 1e3, decode[p10] / 1e3, (double) decode[p10] / parse[p10],
      parse[median] / 1e3, decode[median] / 1e3, (double) decode[median] / parse[median]
    };
  }

  private static int decode(byte[] bytes) throws Exception {
    try {
      // As DecodeBenchmark.decode: the one-pass reader over the same bytes, no copy.
      return EndpointsDecoder.decode(UnsafeByteOperations.unsafeWrap(bytes)).localities().size() * 2;
    } catch (XdsResourceException e) {
      throw new AssertionError(e);
    }
  }

  /** Prints the CPU-time figures; the argument is the number of rounds (default 3000). */
  public static void main(String[] args) throws Exception {
    double[] m = measure(args.length > 0 ? Integer.parseInt(args[0]) : 3000);
    System.out.printf(
        "p10:    parse %.0f us, decode %.0f us, ratio %.2f%nmedian: parse %.0f us, decode %.0f us, ratio %.2f%n",
        m[0], m[1], m[2], m[3], m[4], m[5]);
  }
}
