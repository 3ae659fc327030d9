package io.jxds.benchmarks;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ClientStreamTracer;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.XdsClusterPolicy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link ListenerFirstRpcBenchmark}'s two operations, interleaved, timed by phase with a stream
 * tracer, for busy machines where JMH's averages of a few milliseconds are mostly noise: from the
 * channel's creation to the call's stream (resolution, the balancer tree, the watches: all on the
 * calling thread), to the transport's stream (the connection), to the response headers, to the
 * answer, and {@code shutdownNow}. Prints quartiles per phase, how many calls waited for name
 * resolution ({@link ClientStreamTracer#NAME_RESOLUTION_DELAYED}: a resolution round after the
 * call started), and the ratios of the totals.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.jxds.benchmarks.ListenerFirstRpcPhases 300
 * </pre>
 */
public final class ListenerFirstRpcPhases {
  private static final BytesValue PING = BytesValue.of(ByteString.copyFrom(new byte[] {1}));
  private static final List<String> PHASES = List.of("to the call's stream", "to the connection's stream",
      "to response headers", "to the answer", "shutdownNow", "total");

  private ListenerFirstRpcPhases() {}

  /** Prints the phases' quartiles; the argument is the operations of each kind. */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    ListenerFirstRpcBenchmark bench = new ListenerFirstRpcBenchmark();
    bench.setUp();
    try {
      List<String> targets = List.of(XdsClusterPolicy.target(ListenerFirstRpcBenchmark.CLUSTER),
          "xds:///" + ListenerFirstRpcBenchmark.LISTENER);
      for (int i = 0; i < 100; i++) {
        targets.forEach(ListenerFirstRpcPhases::operation);
      }
      long[][][] times = new long[2][PHASES.size() + 1][n];
      int requests = bench.ads().requests().all().size();
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
          long[] t = operation(targets.get(k));
          for (int p = 0; p < t.length; p++) {
            times[k][p][i] = t[p];
          }
        }
      }
      System.out.printf("ADS requests per pair of channels: %.1f%n",
          (double) (bench.ads().requests().all().size() - requests) / n);
      double[] medians = new double[2];
      for (int k = 0; k < 2; k++) {
        System.out.println(targets.get(k) + ": calls that waited for resolution "
            + Arrays.stream(times[k][PHASES.size()]).sum() + " of " + n);
        for (int p = 0; p < PHASES.size(); p++) {
          long[] v = times[k][p];
          Arrays.sort(v);
          System.out.printf("  %-28s p25 %7.0f  p50 %7.0f  p75 %7.0f µs%n", PHASES.get(p), v[n / 4] / 1e3,
              v[n / 2] / 1e3, v[3 * n / 4] / 1e3);
        }
        medians[k] = times[k][PHASES.size() - 1][n / 2];
      }
      System.out.printf("total, xds:/// over xds-cluster:///: p25 %.2fx, p50 %.2fx%n",
          (double) times[1][PHASES.size() - 1][n / 4] / times[0][PHASES.size() - 1][n / 4], medians[1] / medians[0]);
    } finally {
      bench.tearDown();
    }
  }

  /** One channel, one RPC, shut down: the phases' nanoseconds, then 1 if the call waited for resolution. */
  private static long[] operation(String target) {
    long[] at = new long[6];
    long[] delayed = new long[1];
    ClientStreamTracer.Factory tracers = new ClientStreamTracer.Factory() {
      @Override
      public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
        at[1] = System.nanoTime();
        delayed[0] = info.getCallOptions().getOption(ClientStreamTracer.NAME_RESOLUTION_DELAYED) != null ? 1 : 0;
        return new ClientStreamTracer() {
          @Override
          public void streamCreated(Attributes transportAttrs, Metadata headers) {
            at[2] = System.nanoTime();
          }

          @Override
          public void inboundHeaders() {
            at[3] = System.nanoTime();
          }
        };
      }
    };
    at[0] = System.nanoTime();
    ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    try {
      ClientCalls.blockingUnaryCall(channel, FirstRpcBenchmark.ECHO,
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS).withStreamTracerFactory(tracers),
          PING);
      at[4] = System.nanoTime();
    } finally {
      channel.shutdownNow();
      at[5] = System.nanoTime();
    }
    return new long[] {at[1] - at[0], at[2] - at[1], at[3] - at[2], at[4] - at[3], at[5] - at[4], at[5] - at[0],
        delayed[0]};
  }
}
