package io.jxds.benchmarks;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import java.util.ArrayList;
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
 * Cost of choosing a call's route and cluster (the engine of io.jxds.api.internal.route) and then
 * picking an endpoint, against today's {@code xds_cluster} pick alone (the baseline, same run): the
 * priority → locality → endpoint chain of {@link PickBenchmark#jxdsChain} (10 localities × 100
 * endpoints).
 *
 * <ul>
 *   <li>{@code xdsClusterPick}: the pick alone, as an {@code xds-cluster:///} channel does it;
 *   <li>{@code oneRoute}: one route, prefix {@code ""} to one cluster, then the pick;
 *   <li>{@code tenHeaderRoutes}: ten routes; the first nine match the service prefix and a header
 *       {@code x-version} exact {@code v1}..{@code v9} (each to its own cluster), the tenth is a
 *       90/10 weighted split for everything else; the call carries {@code x-version: v10} and
 *       {@code x-user}, so it is tried against all ten and takes the split (a weighted draw), then
 *       the pick. The worst case of such a table: every header matcher runs.
 *   <li>{@code tenPathRoutes}: ten routes on distinct method paths ({@code path} exact), the call
 *       matching the last; what the header reads of {@code tenHeaderRoutes} add shows against it.
 * </ul>
 *
 * <p>Each call's headers are one {@code Metadata} built once, as a channel's call has its own. The
 * cluster manager's lookup of the chosen cluster's picker is not included (one picker serves).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar RouteMatchBenchmark -f 2 -wi 3 -i 5 -w 1
 * -r 1 -t 1}; compare each score with {@code xdsClusterPick} of the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RouteMatchBenchmark {
  private static final String METHOD = "echo.Echo/Say";

  SubchannelPicker picker;
  RouteTable oneRoute;
  RouteTable tenRoutes;
  RouteTable tenPathRoutes;
  Metadata headers;

  @Setup
  public void setUp() {
    picker = PickBenchmark.jxdsChain(10, 100);
    oneRoute = RouteTable.of(new VirtualHost("vh", List.of("*"), List.of(
        new Route("all", RouteMatch.path(new StringMatcher.Prefix("", false)), new RouteAction.Cluster("c")))));
    List<Route> routes = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      HeaderMatcher version = HeaderMatcher.of("x-version",
          new HeaderMatcher.StringMatch(new StringMatcher.Exact("v" + i, false)));
      routes.add(new Route("v" + i, new RouteMatch(new StringMatcher.Prefix("/echo.Echo/", false),
          List.of(version), Optional.empty()), new RouteAction.Cluster("c" + i)));
    }
    routes.add(new Route("split", RouteMatch.path(new StringMatcher.Prefix("", false)),
        new RouteAction.WeightedClusters(List.of(new ClusterWeight("stable", 90), new ClusterWeight("canary", 10)))));
    tenRoutes = RouteTable.of(new VirtualHost("vh", List.of("*"), routes));
    List<Route> byPath = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      byPath.add(new Route("m" + i, RouteMatch.path(new StringMatcher.Exact("/echo.Echo/Method" + i, false)),
          new RouteAction.Cluster("c" + i)));
    }
    byPath.add(new Route("say", RouteMatch.path(new StringMatcher.Exact("/" + METHOD, false)),
        new RouteAction.Cluster("c")));
    tenPathRoutes = RouteTable.of(new VirtualHost("vh", List.of("*"), byPath));
    headers = new Metadata();
    headers.put(Metadata.Key.of("x-version", Metadata.ASCII_STRING_MARSHALLER), "v10");
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "alice");
  }

  @Benchmark
  public PickResult xdsClusterPick() {
    return picker.pickSubchannel(PickBenchmark.ARGS);
  }

  @Benchmark
  public PickResult oneRoute() {
    return routeThenPick(oneRoute);
  }

  @Benchmark
  public PickResult tenHeaderRoutes() {
    return routeThenPick(tenRoutes);
  }

  @Benchmark
  public PickResult tenPathRoutes() {
    return routeThenPick(tenPathRoutes);
  }

  private PickResult routeThenPick(RouteTable table) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    RouteEntry entry = table.match(METHOD, headers, random);
    String cluster = entry == null ? null : entry.chooseCluster(random);
    if (cluster == null) {
      throw new IllegalStateException("no cluster");
    }
    // the cluster manager's lookup of its child's picker is the next layer's; here one picker serves
    return picker.pickSubchannel(PickBenchmark.ARGS);
  }
}
