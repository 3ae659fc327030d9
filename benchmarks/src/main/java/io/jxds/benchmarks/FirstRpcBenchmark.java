package io.jxds.benchmarks;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.jxds.balancer.XdsClusterCredentials;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What upstream mutual TLS (gRFC A29) costs the first RPC of a channel: each operation builds a
 * channel to {@code xds-cluster:///NAME}, makes one unary RPC to a backend on 127.0.0.1 and shuts
 * the channel down. {@link #plaintextFirstRpc} is the baseline (a plaintext cluster,
 * {@code InsecureChannelCredentials}); {@link #mutualTlsFirstRpc} adds the TLS 1.3 handshake with
 * EC P-256 certificates on both sides, chain and SAN checks, through {@link XdsClusterCredentials}.
 * The xDS client is pooled and both clusters are cached, so neither pays for the control plane.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FirstRpcBenchmark {
  private static final String BOOTSTRAP_PROPERTY = "jxds.bootstrapConfig";
  static final MethodDescriptor<BytesValue, BytesValue> ECHO = MethodDescriptor.<BytesValue, BytesValue>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("jxds.bench.Echo/Echo")
      .setRequestMarshaller(ProtoUtils.marshaller(BytesValue.getDefaultInstance()))
      .setResponseMarshaller(ProtoUtils.marshaller(BytesValue.getDefaultInstance()))
      .build();
  private static final BytesValue PING = BytesValue.of(ByteString.copyFrom(new byte[] {1}));

  private Path dir;
  private FakeAdsServer ads;
  private Server plainBackend;
  private Server tlsBackend;

  @Setup
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("jxds-first-rpc");
    TestPki ca = TestPki.create("bench-ca");
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    Path server = dir.resolve("server");
    Path client = dir.resolve("client");
    ca.issue("backend", "payments.example.com").write(server);
    ca.issue("client").write(client);
    plainBackend = backend(InsecureServerCredentials.create());
    tlsBackend = backend(TlsServerCredentials.newBuilder()
        .keyManager(TestPki.Identity.certificateFile(server).toFile(), TestPki.Identity.keyFile(server).toFile())
        .trustManager(caFile.toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build());
    ads = FakeAdsServer.loopback().start();
    ads.setClusters(
        XdsResources.cluster("plain").build(),
        XdsResources.cluster("tls").mutualTls("default", "payments.example.com").build());
    ads.setEndpoints(endpoints("plain", plainBackend), endpoints("tls", tlsBackend));
    System.setProperty(BOOTSTRAP_PROPERTY, ads.bootstrap()
        .fileWatcherProvider("default", TestPki.Identity.certificateFile(client), TestPki.Identity.keyFile(client),
            caFile, null)
        .build());
    // Warm the pooled client and both clusters' cache (retention keeps them between operations).
    plaintextFirstRpc();
    mutualTlsFirstRpc();
  }

  @TearDown
  public void tearDown() throws Exception {
    System.clearProperty(BOOTSTRAP_PROPERTY);
    plainBackend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    tlsBackend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    ads.close();
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
    }
    Files.deleteIfExists(dir);
  }

  /** Baseline: a new channel to a plaintext cluster, one RPC, shut down. */
  @Benchmark
  public BytesValue plaintextFirstRpc() {
    return firstRpc("plain", InsecureChannelCredentials.create());
  }

  /** A new channel to a mutual-TLS cluster through XdsClusterCredentials, one RPC, shut down. */
  @Benchmark
  public BytesValue mutualTlsFirstRpc() {
    return firstRpc("tls", XdsClusterCredentials.create());
  }

  private static BytesValue firstRpc(String cluster, ChannelCredentials credentials) {
    ManagedChannel channel = Grpc.newChannelBuilder(XdsClusterPolicy.target(cluster), credentials).build();
    try {
      return ClientCalls.blockingUnaryCall(
          channel, ECHO, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), PING);
    } finally {
      channel.shutdownNow();
    }
  }

  private static Server backend(ServerCredentials credentials) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), credentials)
        .addService(echoService())
        .build()
        .start();
  }

  /** {@link #ECHO}, answering each request with itself. */
  static ServerServiceDefinition echoService() {
    return ServerServiceDefinition.builder("jxds.bench.Echo")
        .addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
          response.onNext(request);
          response.onCompleted();
        }))
        .build();
  }

  private static io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment endpoints(String name, Server s) {
    return XdsResources.endpoints(name)
        .locality("r", "z", "", l -> l.priority(0).weight(1).endpoint("127.0.0.1", s.getPort(), HealthStatus.HEALTHY))
        .build();
  }
}
