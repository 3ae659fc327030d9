package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.action;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.prefix;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.route;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.seconds;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.withHeader;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction.HashPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction.MaxStreamDuration;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.XdsResources;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * jxds's {@code xds:///} channel beside grpc-java's own on one FakeAdsServer and the same real
 * backends, for what a route sets on each call: the same deadline (within scheduler jitter, gRFC
 * A31), the same attempts per call for a backend that fails a known pattern (gRFC A44), the same
 * endpoint for the same hash key over the same ring (gRFC A42). Where jxds deliberately differs
 * (a virtual host's retry policy, timeouts under 1 ms or of 10^7 s and more), both sides are
 * asserted. Runs in a JVM of its own (see the module's pom): grpc-java reads its bootstrap once.
 */
class GrpcJavaPerRouteDifferentialTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long JITTER = TimeUnit.MILLISECONDS.toNanos(500);

  private static FakeAdsServer ads;
  private static PatternBackend pattern;
  private static TestBackends ring;
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final AtomicInteger callIds = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    ads = FakeAdsServer.loopback().start();
    System.setProperty("io.grpc.xds.bootstrapConfig", ads.bootstrap().nodeId("grpc-java").build());
    System.setProperty("jxds.bootstrapConfig",
        ads.bootstrap().nodeId("jxds").jxdsOption("client_retention", "0s").build());
    pattern = new PatternBackend("p");
    ring = new TestBackends();
    List<TestBackend> hashed = ring.start(4);
    ads.setClusters(XdsResources.cluster("p").build(),
        XdsResources.cluster("h").lbPolicy(Cluster.LbPolicy.RING_HASH).build());
    ads.setEndpoints(
        XdsResources.endpoints("p")
            .locality("r", "z", "", l -> l.weight(1).endpoint("127.0.0.1", pattern.port(), HEALTHY)).build(),
        XdsResources.endpoints("h").locality("r", "z", "", l -> {
          l.weight(1);
          for (TestBackend b : hashed) {
            l.lbEndpoint(hashKeyed(b));
          }
        }).build());
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (pattern != null) {
      pattern.close();
    }
    if (ring != null) {
      ring.close();
    }
    if (ads != null) {
      ads.close();
    }
    System.clearProperty("io.grpc.xds.bootstrapConfig");
    System.clearProperty("jxds.bootstrapConfig");
  }

  @AfterEach
  void closeChannels() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aRoutesTimeoutGivesTheSameDeadline() {
    serve("timeout", vhost(route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(2, 0))))), l -> { });
    long[] left = deadlines(pair("timeout"));
    assertThat(left[0]).as("grpc-java").isBetween(SECOND, 2 * SECOND);
    assertThat(left[1]).as("jxds").isBetween(SECOND, 2 * SECOND);
    assertThat(Math.abs(left[0] - left[1])).isLessThan(JITTER);
  }

  @Test
  void theListenersTimeoutGivesTheSameDeadline() {
    serve("hcm", vhost(route(prefix("/"), action("p"))), l -> l.httpConnectionManager()
        .setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder().setMaxStreamDuration(seconds(3, 0))));
    long[] left = deadlines(pair("hcm"));
    assertThat(left[0]).as("grpc-java").isBetween(2 * SECOND, 3 * SECOND);
    assertThat(left[1]).as("jxds").isBetween(2 * SECOND, 3 * SECOND);
    assertThat(Math.abs(left[0] - left[1])).isLessThan(JITTER);
  }

  @Test
  void aRoutesRetryPolicyMakesTheSameAttempts() {
    serve("retry", vhost(route(prefix("/"), action("p").setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("unavailable,cancelled").setNumRetries(UInt32Value.of(3))
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(0, 1_000_000)))))),
        l -> { });
    List<ManagedChannel> pair = pair("retry");
    for (int failFirst : new int[] {0, 1, 3, 4, 6}) {
      int[] attempts = new int[2];
      Status.Code[] codes = new Status.Code[2];
      for (int i = 0; i < 2; i++) {
        String id = "retry-" + callIds.incrementAndGet();
        codes[i] = PerRouteEndToEndTest.call(pair.get(i), CallOptions.DEFAULT, failFirst, null, id);
        attempts[i] = pattern.attempts(id);
      }
      assertThat(codes[1]).as("failing the first %s", failFirst).isEqualTo(codes[0]);
      assertThat(attempts[1]).as("attempts when failing the first %s", failFirst).isEqualTo(attempts[0]);
    }
    String id = "retry-internal-";
    assertThat(PerRouteEndToEndTest.call(pair.get(0), CallOptions.DEFAULT, 1, "INTERNAL", id + 0))
        .isEqualTo(PerRouteEndToEndTest.call(pair.get(1), CallOptions.DEFAULT, 1, "INTERNAL", id + 1))
        .isEqualTo(Status.Code.INTERNAL);
    assertThat(pattern.attempts(id + 0)).isEqualTo(pattern.attempts(id + 1)).isEqualTo(1);
  }

  @Test
  void aHeaderHashSendsEachKeyToTheSameEndpoint() {
    serve("hash", vhost(route(prefix("/"), action("h").addHashPolicy(HashPolicy.newBuilder()
        .setHeader(HashPolicy.Header.newBuilder().setHeaderName("x-user"))))), l -> { });
    List<ManagedChannel> pair = pair("hash");
    Set<String> used = new HashSet<>();
    for (int u = 0; u < 16; u++) {
      String grpcJava = name(withHeader(pair.get(0), "x-user", "user-" + u));
      String jxds = name(withHeader(pair.get(1), "x-user", "user-" + u));
      assertThat(jxds).as("user-%s", u).isEqualTo(grpcJava);
      used.add(jxds);
    }
    assertThat(used).hasSizeGreaterThan(1);
  }

  @Test
  void differenceAVirtualHostsRetryPolicyIsAppliedByJxdsAndIgnoredByGrpcJava() {
    VirtualHost vh = vhost(route(prefix("/"), action("p"))).toBuilder().setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("unavailable").setNumRetries(UInt32Value.of(2))).build();
    serve("vh-retry", vh, l -> { });
    List<ManagedChannel> pair = pair("vh-retry");
    assertThat(PerRouteEndToEndTest.call(pair.get(0), CallOptions.DEFAULT, 1, null, "vh-0"))
        .isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(pattern.attempts("vh-0")).as("grpc-java").isEqualTo(1);
    assertThat(PerRouteEndToEndTest.call(pair.get(1), CallOptions.DEFAULT, 1, null, "vh-1"))
        .isEqualTo(Status.Code.OK);
    assertThat(pattern.attempts("vh-1")).as("jxds").isEqualTo(2);
  }

  @Test
  void differenceTimeoutsUnderOneMillisecondOrOfTenMillionSecondsWorkInJxdsOnly() {
    serve("odd-timeouts", vhost(
        route(PerRouteEndToEndTest.header("x-route", "tiny"), action("p").setMaxStreamDuration(
            MaxStreamDuration.newBuilder().setMaxStreamDuration(seconds(0, 500_000)))),
        route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(seconds(10_000_000, 0))))), l -> { });
    List<ManagedChannel> pair = pair("odd-timeouts");
    Channel grpcJavaTiny = withHeader(pair.get(0), "x-route", "tiny");
    // answered 50 ms late: a warm loopback call could otherwise beat 0.5 ms
    Channel jxdsTiny = withHeader(withHeader(pair.get(1), "x-route", "tiny"), "x-answer-after-ms", "50");

    assertThat(PerRouteEndToEndTest.call(pair.get(0), CallOptions.DEFAULT, 0, null, "huge-0"))
        .as("grpc-java, 10^7 s").isEqualTo(Status.Code.UNKNOWN);
    assertThat(PerRouteEndToEndTest.call(grpcJavaTiny, CallOptions.DEFAULT, 0, null, "tiny-0"))
        .as("grpc-java, 0.5 ms").isEqualTo(Status.Code.UNKNOWN);
    assertThat(PerRouteEndToEndTest.call(pair.get(1), CallOptions.DEFAULT, 0, null, "huge-1"))
        .as("jxds, 10^7 s").isEqualTo(Status.Code.OK);
    assertThat(PerRouteEndToEndTest.call(jxdsTiny, CallOptions.DEFAULT, 0, null, "tiny-1"))
        .as("jxds, 0.5 ms").isEqualTo(Status.Code.DEADLINE_EXCEEDED);
  }

  // helpers

  /**
   * An endpoint whose ring key is the one grpc-java 1.85 builds its ring from (the first address's
   * {@code InetSocketAddress.toString()}, {@code /IP:PORT}; it does not read gRFC A76's
   * {@code hash_key}), given to jxds as its {@code envoy.lb} {@code hash_key} (jxds's default key is
   * {@code IP:PORT}): the same ring in both clients.
   */
  private static LbEndpoint hashKeyed(TestBackend b) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
            SocketAddress.newBuilder().setAddress(b.ip()).setPortValue(b.port()))))
        .setHealthStatus(HEALTHY)
        .setMetadata(Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
            .putFields("hash_key", Value.newBuilder().setStringValue("/" + b.ip() + ":" + b.port()).build()).build()))
        .build();
  }

  /** The time left on the deadline each channel's call arrived with: grpc-java's, then jxds's. */
  private long[] deadlines(List<ManagedChannel> pair) {
    long[] left = new long[2];
    for (int i = 0; i < 2; i++) {
      int before = pattern.deadlines().size();
      assertThat(PerRouteEndToEndTest.call(pair.get(i), CallOptions.DEFAULT, 0, null, "d-" + callIds.incrementAndGet()))
          .isEqualTo(Status.Code.OK);
      left[i] = pattern.deadlines().get(before);
    }
    return left;
  }

  private static String name(Channel channel) {
    return new String(ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD,
        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), new byte[0]), StandardCharsets.UTF_8);
  }

  private static void serve(String listener, VirtualHost host, Consumer<ListenerBuilder> hcm) {
    ads.setRoutes(RouteConfiguration.newBuilder().setName(listener + "-routes").addVirtualHosts(host).build());
    ListenerBuilder l = XdsResources.listener(listener).rdsRouteConfig(listener + "-routes");
    hcm.accept(l);
    ads.setListeners(l.build());
  }

  private static VirtualHost vhost(io.envoyproxy.envoy.config.route.v3.Route... routes) {
    return PerRouteEndToEndTest.vhost(routes);
  }

  private List<ManagedChannel> pair(String listener) {
    ManagedChannel grpcJava = NettyChannelBuilder.forTarget("xds:///" + listener, InsecureChannelCredentials.create())
        .nameResolverFactory(new io.grpc.xds.XdsNameResolverProvider())
        .build();
    ManagedChannel jxds = Grpc.newChannelBuilder("xds:///" + listener, InsecureChannelCredentials.create()).build();
    channels.add(grpcJava);
    channels.add(jxds);
    return List.of(grpcJava, jxds);
  }
}
