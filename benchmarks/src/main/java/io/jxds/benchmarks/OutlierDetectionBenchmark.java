package io.jxds.benchmarks;

import io.grpc.ClientStreamTracer;
import io.grpc.ConnectivityState;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.Helper;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.ResolvedAddresses;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.Endpoint;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.api.model.Locality;
import io.jxds.api.model.LocalityId;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.OutlierDetection.FailurePercentage;
import io.jxds.api.model.OutlierDetection.SuccessRate;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.balancer.internal.eds.EdsConfig;
import io.jxds.balancer.internal.outlier.CallCounter;
import io.jxds.balancer.internal.outlier.OutlierDetector;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What outlier detection (gRFC A50) costs:
 *
 * <ul>
 *   <li>{@link #pickAndCall}: a pick through the EDS layer's picker (circuit breaker, priority,
 *       locality, endpoint; {@code endpoints} READY endpoints, 100 per locality) plus the call's
 *       accounting (its stream tracer: headers out, closed OK), with {@code outliers} {@code off}
 *       (no {@code outlier_detection}) or {@code on} (both algorithms); compare the two in one run
 *       (the target: on at most 1.2 times off);
 *   <li>{@link Sweep#sweep}: one ejection sweep over 10 000 endpoints, each with 100 calls (a few
 *       failing) since the last one, both algorithms on (the target: at most 5 ms). It runs on the
 *       SynchronizationContext every {@code interval}, never on an RPC thread.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OutlierDetectionBenchmark {
  static final OutlierDetection BOTH = new OutlierDetection(Duration.ofSeconds(10), Duration.ofSeconds(30),
      Duration.ofSeconds(300), 10, Optional.of(SuccessRate.defaults()), Optional.of(FailurePercentage.defaults()));
  private static final ClientStreamTracer.StreamInfo INFO = ClientStreamTracer.StreamInfo.newBuilder().build();
  private static final Metadata HEADERS = new Metadata();

  @Param({"8", "1000"})
  public int endpoints;

  @Param({"off", "on"})
  public String outliers;

  FakeLbHelper helper;
  EdsBalancer balancer;
  SubchannelPicker picker;

  @Setup(Level.Trial)
  public void setUp() {
    helper = FakeLbHelper.forBenchmarks(true);
    FakeXdsClient xds = new FakeXdsClient("bench");
    balancer = new EdsBalancer(helper, xds, TestRandom.seeded(1), TestRandom.seeded(2));
    // No request limit: see EdsUpdateBenchmark.startBalancer.
    EdsConfig config = new EdsConfig("outliers", "outliers-eds", Long.MAX_VALUE, Duration.ofSeconds(10),
        Duration.ofMinutes(15), EndpointPolicy.ROUND_ROBIN, false,
        outliers.equals("on") ? Optional.of(BOTH) : Optional.empty());
    helper.run(() -> balancer.acceptResolvedAddresses(ResolvedAddresses.newBuilder()
        .setAddresses(List.of()).setLoadBalancingPolicyConfig(config).build()));
    xds.activeWatch(ResourceTypes.ENDPOINTS, "outliers-eds").update(assignment(endpoints));
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("setup: state " + helper.state());
    }
    picker = helper.picker();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    helper.run(balancer::shutdown);
  }

  /** One pick and its call's accounting, as the channel drives them. */
  @Benchmark
  public PickResult pickAndCall() {
    PickResult result = picker.pickSubchannel(PickBenchmark.ARGS);
    ClientStreamTracer tracer = result.getStreamTracerFactory().newClientStreamTracer(INFO, HEADERS);
    tracer.outboundHeaders();
    tracer.streamClosed(Status.OK);
    return result;
  }

  static EndpointsUpdate assignment(int n) {
    List<Locality> localities = new ArrayList<>();
    for (int first = 0; first < n; first += 100) {
      List<Endpoint> list = new ArrayList<>();
      for (int i = first; i < Math.min(n, first + 100); i++) {
        list.add(Endpoint.of(BenchConfigs.address(i)));
      }
      localities.add(new Locality(new LocalityId("r", "z" + first / 100, ""), 0, 1, list));
    }
    return new EndpointsUpdate("outliers-eds", localities, List.of(), 100);
  }

  /** The sweep over 10 000 endpoints. */
  @State(Scope.Benchmark)
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public static class Sweep {
    static final int ENDPOINTS = 10_000;

    FakeLbHelper helper;
    OutlierDetector detector;
    final List<CallCounter> counters = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() {
      helper = FakeLbHelper.forBenchmarks(true);
      detector = new OutlierDetector("outliers", helper.getSynchronizationContext(),
          helper.getScheduledExecutorService(), TestRandom.seeded(3));
      Helper wrapping = detector.helper(helper);
      List<Set<SocketAddress>> sets = new ArrayList<>();
      for (int i = 0; i < ENDPOINTS; i++) {
        sets.add(Set.of(BenchConfigs.address(i)));
      }
      helper.run(() -> {
        detector.updateEndpoints(sets);
        detector.configure(BOTH);
        for (int i = 0; i < ENDPOINTS; i++) {
          Subchannel s = wrapping.createSubchannel(CreateSubchannelArgs.newBuilder()
              .setAddresses(new EquivalentAddressGroup(BenchConfigs.address(i))).build());
          s.start(info -> { });
          counters.add(detector.counter(s));
        }
      });
    }

    /** 100 calls per endpoint since the last sweep, a few failing (none far enough to be ejected). */
    @Setup(Level.Invocation)
    public void calls() {
      for (int i = 0; i < counters.size(); i++) {
        CallCounter c = counters.get(i);
        for (int k = 0; k < 100; k++) {
          c.record(k >= i % 5);
        }
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      helper.run(detector::shutdown);
    }

    @Benchmark
    public void sweep() {
      helper.run(detector::sweep);
    }
  }
}
