package io.jxds.benchmarks;

import io.grpc.CallOptions;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.route.HashPolicy;
import io.jxds.api.model.route.RetryPolicy;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.manager.ChosenCluster;
import io.jxds.balancer.internal.resolver.RequestHash;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import io.jxds.testing.FakeLbHelper;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a route's per-call settings (gRFC A31 timeout, A44 retry policy, A42 hash policy) add to a
 * call's route choice and pick, over a ring hash cluster (priority → one ring over 10 localities ×
 * 100 endpoints, {@link PickBenchmark#chain}). The method config (timeout and retry policy) is
 * parsed once per route table and handed to the channel as an object, so per call it costs one
 * read; the hash is computed once per call from the headers and set in the call options.
 *
 * <ul>
 *   <li>{@code routeNone}: route match, cluster choice, the call options with the chosen cluster,
 *       the pick (a random hash: no policy);
 *   <li>{@code routeTimeoutRetryHash}: the same route with a timeout, a retry policy and a header
 *       hash policy: the header hashed, the hash in the call options, a sticky pick (target ≤ 1.3×
 *       {@code routeNone});
 *   <li>{@code requestHashPick}: today's ring hash pick with the {@code REQUEST_HASH} call option
 *       set by the application;
 *   <li>{@code routeHeaderHashPick}: a route header hash policy's cost: the header read and hashed,
 *       the option set, the pick (target ≤ 1.2× {@code requestHashPick});
 *   <li>{@code hashHeaderPick}: today's {@code hashHeader} config (the picker hashes the header).
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar PerRouteBenchmark -f 2 -wi 3 -i 5 -w 1
 * -r 1 -t 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerRouteBenchmark {
  private static final String METHOD = "echo.Echo/Say";

  SubchannelPicker ring;
  SubchannelPicker ringWithHashHeader;
  RouteTable none;
  RouteTable withSettings;
  RequestHash requestHash;
  Metadata headers;
  CallOptions appHash;
  long appHashValue = 0x1234_5678_9ABC_DEF0L;
  io.jxds.api.internal.route.HeaderReader reader = io.jxds.api.internal.route.HeaderReader.of("x-user");

  @Setup
  public void setUp() {
    ring = PickBenchmark.chain(10, 100, 1, new EndpointPolicy(LbPolicy.RingHash.defaults(), ""));
    ringWithHashHeader = PickBenchmark.chain(10, 100, 1, new EndpointPolicy(LbPolicy.RingHash.defaults(), "x-user"));
    RouteMatch all = RouteMatch.path(new StringMatcher.Prefix("", false));
    none = RouteTable.of(new VirtualHost("vh", List.of("*"), List.of(new Route("all", all,
        new RouteAction.Cluster("c")))));
    List<HashPolicy> hash = List.of(new HashPolicy.Header("x-user", Optional.empty(), false));
    withSettings = RouteTable.of(new VirtualHost("vh", List.of("*"), List.of(new Route("all", all,
        new RouteAction.Cluster("c"), Optional.of(Duration.ofSeconds(2)), Optional.of(new RetryPolicy(
            List.of(io.grpc.Status.Code.UNAVAILABLE), 2, Duration.ofMillis(25), Duration.ofMillis(250))), hash))));
    requestHash = new RequestHash(hash, 7);
    headers = new Metadata();
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "alice");
    appHash = CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, 0x1234_5678_9ABC_DEF0L);
  }

  @Benchmark
  public PickResult routeNone() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    RouteEntry entry = none.match(METHOD, headers, random);
    CallOptions options = CallOptions.DEFAULT.withOption(ChosenCluster.KEY, entry.chooseCluster(random));
    return ring.pickSubchannel(FakeLbHelper.args(options, headers));
  }

  @Benchmark
  public PickResult routeTimeoutRetryHash() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    RouteEntry entry = withSettings.match(METHOD, headers, random);
    CallOptions options = CallOptions.DEFAULT.withOption(ChosenCluster.KEY, entry.chooseCluster(random));
    Long hash = requestHash.hash(headers);
    if (hash != null) {
      options = options.withOption(XdsClusterPolicy.REQUEST_HASH, hash);
    }
    return ring.pickSubchannel(FakeLbHelper.args(options, headers));
  }

  @Benchmark
  public PickResult requestHashPick() {
    return ring.pickSubchannel(FakeLbHelper.args(appHash, headers));
  }

  @Benchmark
  public PickResult routeHeaderHashPick() {
    Long hash = requestHash.hash(headers);
    CallOptions options = hash == null ? CallOptions.DEFAULT
        : CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, hash);
    return ring.pickSubchannel(FakeLbHelper.args(options, headers));
  }

  /** The application's side of {@code REQUEST_HASH} as a call sets it: its hash in a call option, the pick. */
  @Benchmark
  public PickResult requestHashPickPerCall() {
    CallOptions options = CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, appHashValue);
    return ring.pickSubchannel(FakeLbHelper.args(options, headers));
  }

  /** Part: the header read as a route reads it. */
  @Benchmark
  public String partHeaderRead() {
    return reader.read(headers);
  }

  /** Part: the route's hash: the header read and hashed. */
  @Benchmark
  public Long partRouteHash() {
    return requestHash.hash(headers);
  }

  /** Part: the call options of a routed call without a hash (the cluster). */
  @Benchmark
  public CallOptions partClusterOption() {
    return CallOptions.DEFAULT.withOption(ChosenCluster.KEY, "c");
  }

  /** Part: the call options of a routed call with a hash, as two options. */
  @Benchmark
  public CallOptions partClusterAndHashOptions() {
    return CallOptions.DEFAULT.withOption(ChosenCluster.KEY, "c").withOption(XdsClusterPolicy.REQUEST_HASH,
        appHashValue);
  }

  /** Part: the call options of a routed call with a hash, as one option holding both. */
  @Benchmark
  public CallOptions partClusterWithHashOption() {
    return CallOptions.DEFAULT.withOption(BOTH, new Object[] {"c", appHashValue});
  }

  static final CallOptions.Key<Object[]> BOTH = CallOptions.Key.create("both");

  @Benchmark
  public PickResult hashHeaderPick() {
    return ringWithHashHeader.pickSubchannel(FakeLbHelper.args(CallOptions.DEFAULT, headers));
  }
}
