package io.jxds.benchmarks;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What routing by listener (gRFC A27, A28; ARCHITECTURE.md, "Routing each call") costs the first
 * RPC of a channel: each operation builds a channel, makes one unary RPC to the one backend on
 * 127.0.0.1 and shuts the channel down. {@link #clusterFirstRpc} is the baseline, {@code
 * xds-cluster:///echo} (CDS and EDS); {@link #listenerFirstRpc} is {@code xds:///echo}, whose
 * listener names the route configuration {@code echo-routes} (RDS), whose one route sends every
 * call to the same cluster, so it adds the listener and route watches, the config selector and the
 * cluster manager policy in front of the same cluster's. The xDS client is pooled and its ADS
 * stream already open, and every resource is cached (retention keeps the watches between
 * operations), so neither side waits for the control plane.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ListenerFirstRpcBenchmark {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  static final String CLUSTER = "echo";
  static final String LISTENER = "echo";
  private static final String ROUTES = "echo-routes";
  private static final BytesValue PING = BytesValue.of(ByteString.copyFrom(new byte[] {1}));

  private FakeAdsServer ads;
  private Server backend;

  @Setup
  public void setUp() throws IOException {
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), InsecureServerCredentials.create())
        .addService(FirstRpcBenchmark.echoService())
        .build()
        .start();
    ads = FakeAdsServer.loopback().start();
    ads.setClusters(XdsResources.cluster(CLUSTER).build());
    ads.setEndpoints(XdsResources.endpoints(CLUSTER)
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", backend.getPort(),
            HealthStatus.HEALTHY))
        .build());
    ads.setRoutes(RouteConfiguration.newBuilder().setName(ROUTES)
        .addVirtualHosts(VirtualHost.newBuilder().setName("echo").addDomains("*")
            .addRoutes(Route.newBuilder().setName("all").setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setCluster(CLUSTER))))
        .build());
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES).build());
    System.setProperty(BOOTSTRAP_PROPERTY, ads.bootstrap().build());
    // Open the pooled client's ADS stream and cache every resource (retention keeps them).
    clusterFirstRpc();
    listenerFirstRpc();
  }

  @TearDown
  public void tearDown() throws Exception {
    System.clearProperty(BOOTSTRAP_PROPERTY);
    backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    ads.close();
  }

  /** The control plane, for the smoke test to see the stream and the requests. */
  FakeAdsServer ads() {
    return ads;
  }

  /** Baseline: a new {@code xds-cluster:///echo} channel, one RPC, shut down. */
  @Benchmark
  public BytesValue clusterFirstRpc() {
    return firstRpc(XdsClusterPolicy.target(CLUSTER));
  }

  /** A new {@code xds:///echo} channel (listener, routes, then the same cluster), one RPC, shut down. */
  @Benchmark
  public BytesValue listenerFirstRpc() {
    return firstRpc("xds:///" + LISTENER);
  }

  private static BytesValue firstRpc(String target) {
    ManagedChannel channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    try {
      return ClientCalls.blockingUnaryCall(
          channel, FirstRpcBenchmark.ECHO, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), PING);
    } finally {
      channel.shutdownNow();
    }
  }
}
