package io.jxds.benchmarks;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
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
 * What routing costs a whole call, not a bare pick: the same unary call (one byte each way,
 * blocking stub) to the same real backend on 127.0.0.1 through three long-lived channels, each
 * connected and every resource cached before measuring, all sharing the pooled client:
 *
 * <ul>
 *   <li>{@code clusterCall}: {@code xds-cluster:///c}, the baseline (the {@code xds_cluster} tree);
 *   <li>{@code oneRouteCall}: {@code xds:///one}, one route (prefix {@code /}) to cluster {@code c}:
 *       the config selector, the cluster reference of the call, the cluster manager's lookup, then
 *       the same tree;
 *   <li>{@code tenHeaderRoutesCall}: {@code xds:///ten}, {@link RouteMatchBenchmark}'s table (nine
 *       {@code x-version} exact routes, then a 90/10 split between {@code stable} and {@code
 *       canary}); the call carries {@code x-version: v10} and {@code x-user}, so every route is
 *       tried and the split drawn.
 * </ul>
 *
 * <p>Every call carries the same two headers on every channel. Every cluster has the same one
 * endpoint, the backend. Run: {@code java -jar benchmarks/target/benchmarks.jar RoutedCallBenchmark
 * -f 2 -wi 5 -i 8 -w 2 -r 2 -t 1}; compare each score with {@code clusterCall} of the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(1)
public class RoutedCallBenchmark {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  private static final BytesValue PING = BytesValue.of(ByteString.copyFrom(new byte[] {1}));
  private static final List<String> CLUSTERS =
      List.of("c", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "stable", "canary");

  private FakeAdsServer ads;
  private Server backend;
  private final List<ManagedChannel> channels = new ArrayList<>();
  Channel cluster;
  Channel oneRoute;
  Channel tenHeaderRoutes;

  @Setup
  public void setUp() throws IOException {
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), InsecureServerCredentials.create())
        .addService(FirstRpcBenchmark.echoService())
        .build()
        .start();
    ads = FakeAdsServer.loopback().start();
    List<Cluster> clusters = new ArrayList<>();
    List<ClusterLoadAssignment> endpoints = new ArrayList<>();
    for (String c : CLUSTERS) {
      clusters.add(XdsResources.cluster(c).build());
      endpoints.add(XdsResources.endpoints(c)
          .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.getPort(),
              HealthStatus.HEALTHY))
          .build());
    }
    ads.setClusters(clusters.toArray(new Cluster[0]));
    ads.setEndpoints(endpoints.toArray(new ClusterLoadAssignment[0]));
    ads.setRoutes(oneRouteConfig(), tenHeaderRoutesConfig());
    ads.setListeners(XdsResources.listener("one").rdsRouteConfig("one-routes").build(),
        XdsResources.listener("ten").rdsRouteConfig("ten-routes").build());
    System.setProperty(BOOTSTRAP_PROPERTY, ads.bootstrap().build());
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-version", Metadata.ASCII_STRING_MARSHALLER), "v10");
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "alice");
    cluster = channel(XdsClusterPolicy.target("c"), headers);
    oneRoute = channel("xds:///one", headers);
    tenHeaderRoutes = channel("xds:///ten", headers);
    // Connect every channel, and each cluster the split may choose.
    for (int i = 0; i < 200; i++) {
      clusterCall();
      oneRouteCall();
      tenHeaderRoutesCall();
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.clearProperty(BOOTSTRAP_PROPERTY);
    backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    ads.close();
  }

  /** The control plane, for the smoke test. */
  FakeAdsServer ads() {
    return ads;
  }

  /** Baseline: {@code xds-cluster:///c}. */
  @Benchmark
  public BytesValue clusterCall() {
    return call(cluster);
  }

  /** {@code xds:///one}: one route to {@code c}. */
  @Benchmark
  public BytesValue oneRouteCall() {
    return call(oneRoute);
  }

  /** {@code xds:///ten}: ten routes with header matchers, the last a weighted split. */
  @Benchmark
  public BytesValue tenHeaderRoutesCall() {
    return call(tenHeaderRoutes);
  }

  private static BytesValue call(Channel channel) {
    return ClientCalls.blockingUnaryCall(
        channel, FirstRpcBenchmark.ECHO, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), PING);
  }

  private Channel channel(String target, Metadata headers) {
    ManagedChannel c = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    channels.add(c);
    return ClientInterceptors.intercept(c, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static RouteConfiguration oneRouteConfig() {
    return RouteConfiguration.newBuilder().setName("one-routes")
        .addVirtualHosts(VirtualHost.newBuilder().setName("one").addDomains("*")
            .addRoutes(Route.newBuilder().setName("all").setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setCluster("c"))))
        .build();
  }

  private static RouteConfiguration tenHeaderRoutesConfig() {
    VirtualHost.Builder host = VirtualHost.newBuilder().setName("ten").addDomains("*");
    for (int i = 1; i <= 9; i++) {
      host.addRoutes(Route.newBuilder().setName("v" + i)
          .setMatch(RouteMatch.newBuilder().setPrefix("/jxds.bench.Echo/")
              .addHeaders(HeaderMatcher.newBuilder().setName("x-version")
                  .setStringMatch(StringMatcher.newBuilder().setExact("v" + i))))
          .setRoute(RouteAction.newBuilder().setCluster("c" + i)));
    }
    host.addRoutes(Route.newBuilder().setName("split").setMatch(RouteMatch.newBuilder().setPrefix("/"))
        .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("stable").setWeight(
                UInt32Value.of(90)))
            .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("canary").setWeight(
                UInt32Value.of(10))))));
    return RouteConfiguration.newBuilder().setName("ten-routes").addVirtualHosts(host).build();
  }
}
