package io.jxds.benchmarks;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.FaultFraction;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.balancer.internal.manager.ChosenCluster;
import io.jxds.balancer.internal.resolver.FaultFilters;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a fault filter (gRFC A33) adds to a call's route choice: the route match, the cluster
 * choice, the call options with the cluster, and the call's interceptor.
 *
 * <ul>
 *   <li>{@code noFilter}: a listener with the router alone;
 *   <li>{@code faultAtZeroPercent}: a fault filter whose abort and delay are at 0 % (istiod's
 *       empty {@code HTTPFault} on every listener is the same): resolved once per table to no
 *       fault, so it should cost nothing (target: equal to {@code noFilter}, no allocation);
 *   <li>{@code faultDrawnNotFired}: a fault filter at 1 per million for delay and abort: each call
 *       draws twice and, nearly always, gets no fault (no allocation either).
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar FaultBenchmark -f 1 -wi 3 -i 5 -w 1 -r 1
 * -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FaultBenchmark {
  private static final String METHOD = "echo.Echo/Say";
  private static final ClientInterceptor CLUSTER = new ClientInterceptor() {
    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      return next.newCall(method, options);
    }
  };

  RouteTable table;
  Route route;
  VirtualHost host;
  Metadata headers;
  FaultFilters.Chain none;
  FaultFilters.Chain zero;
  FaultFilters.Chain drawn;
  ScheduledExecutorService scheduler;
  ChosenCluster chosen;

  @Setup
  public void setUp() {
    RouteMatch all = RouteMatch.path(new StringMatcher.Prefix("", false));
    route = new Route("all", all, new RouteAction.Cluster("c"));
    host = new VirtualHost("vh", List.of("*"), List.of(route));
    table = RouteTable.of(host);
    chosen = ChosenCluster.of("c");
    headers = new Metadata();
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "alice");
    scheduler = Executors.newSingleThreadScheduledExecutor();
    none = FaultFilters.of(List.of(HttpFilter.router()), ThreadLocalRandom::current, scheduler)
        .forCluster(host, route, 0);
    zero = chain(new FaultFraction(0, 100));
    drawn = chain(new FaultFraction(1, 1_000_000));
  }

  @TearDown
  public void tearDown() {
    scheduler.shutdownNow();
  }

  private FaultFilters.Chain chain(FaultFraction share) {
    FaultConfig config = new FaultConfig(
        Optional.of(new FaultConfig.Delay(Optional.of(java.time.Duration.ofMillis(10)), share)),
        Optional.of(new FaultConfig.Abort(Optional.of(Status.Code.UNAVAILABLE), share)), OptionalLong.empty());
    HttpFilter fault = new HttpFilter("envoy.filters.http.fault", HttpFilter.FAULT_TYPE_URL, false,
        Optional.of(config));
    return FaultFilters.of(List.of(fault, HttpFilter.router()), ThreadLocalRandom::current, scheduler)
        .forCluster(host, route, 0);
  }

  @Benchmark
  public Object noFilter() {
    return routeCall(none);
  }

  @Benchmark
  public Object faultAtZeroPercent() {
    return routeCall(zero);
  }

  @Benchmark
  public Object faultDrawnNotFired() {
    return routeCall(drawn);
  }

  private Object routeCall(FaultFilters.Chain faults) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    RouteEntry entry = table.match(METHOD, headers, random);
    entry.chooseCluster(random);
    CallOptions options = CallOptions.DEFAULT.withOption(ChosenCluster.KEY, chosen);
    ClientInterceptor interceptor = faults == null ? CLUSTER : faults.intercept(CLUSTER, headers);
    return interceptor == CLUSTER ? options : interceptor;
  }
}
