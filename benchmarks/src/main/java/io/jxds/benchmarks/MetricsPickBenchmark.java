package io.jxds.benchmarks;

import io.grpc.ConnectivityState;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.balancer.internal.eds.EdsBalancer;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.InMemoryMetrics;
import io.opentelemetry.api.OpenTelemetry;
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
 * What metrics add to a pick: the EDS layer's picker (drops, circuit breaker, priority, locality,
 * endpoint; 1 000 endpoints in one priority, no drop configured) of a real client, whose metrics
 * go nowhere ({@code off}: no OpenTelemetry), into the OpenTelemetry API without an SDK ({@code
 * api}: {@code OpenTelemetry.noop()}) or into the SDK with a reader ({@code sdk}). Compare the
 * three in one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetricsPickBenchmark {
  @Param({"off", "api", "sdk"})
  public String metrics;

  FakeLbHelper helper;
  InMemoryAdsFeed feed;
  EdsBalancer balancer;
  SubchannelPicker picker;
  /** What the {@code sdk} case records, read back by the smoke test; null in the others. */
  InMemoryMetrics sdkMetrics;

  @Setup(Level.Trial)
  public void setUp() {
    sdkMetrics = metrics.equals("sdk") ? new InMemoryMetrics() : null;
    OpenTelemetry openTelemetry = switch (metrics) {
      case "off" -> null;
      case "api" -> OpenTelemetry.noop();
      case "sdk" -> sdkMetrics.openTelemetry();
      default -> throw new IllegalArgumentException("metrics: " + metrics);
    };
    helper = FakeLbHelper.forBenchmarks(true);
    feed = new InMemoryAdsFeed(openTelemetry);
    balancer = EdsUpdateBenchmark.startBalancer(helper, feed);
    feed.ready();
    EdsUpdateBenchmark endpoints = new EdsUpdateBenchmark();
    endpoints.endpoints = 1000;
    endpoints.change = "weights";
    feed.respond(endpoints.response(0));
    if (helper.state() != ConnectivityState.READY) {
      throw new IllegalStateException("setup: state " + helper.state());
    }
    picker = helper.picker();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    helper.run(balancer::shutdown);
    feed.close();
  }

  @Benchmark
  public PickResult pick() {
    return picker.pickSubchannel(PickBenchmark.ARGS);
  }
}
