package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.testing.BackendCalls.FAILED;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateProviderPluginInstance;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.XdsClusterCredentials;
import io.jxds.client.XdsClientPool;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream mutual TLS from the control plane (gRFC A29) end to end: FakeAdsServer serves a cluster
 * whose {@code transport_socket} names the bootstrap's {@code file_watcher} provider; backends on
 * 127.0.0.1 serve TLS with generated certificates and require a client certificate; the channel is
 * {@code xds-cluster:///payments} with {@link XdsClusterCredentials}.
 */
class XdsClusterTlsEndToEndTest {
  private static final String SAN = "payments.example.com";
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final TestBackends backends = bed.backends();
  private final TestPki ca = TestPki.create("mesh-ca");
  private Path caFile;

  @BeforeEach
  void setUp() {
    caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    ca.issue("client-1", "spiffe://mesh/ns/default/sa/client").write(dir.resolve("client"));
    ca.issue("other-client").write(dir.resolve("other"));
    bed.useBootstrap(ads.bootstrap()
        .jxdsOption("client_retention", "0s")
        .fileWatcherProvider("default", cert("client"), key("client"), caFile, "100ms")
        .fileWatcherProvider("other", cert("other"), key("other"), caFile, "100ms")
        .build());
  }

  @Test
  void mutualTlsEndToEnd() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN).build(), a);

    ManagedChannel channel = channel(XdsClusterCredentials.create());

    assertThat(BackendCalls.calls(channel, 20)).isEqualTo(Map.of("a", 20));
    assertThat(a.clientSubjects()).containsOnly("CN=client-1");
  }

  @Test
  void sanMismatchFailsRpcsNamingTheClusterAndTheExpectedSans() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", "evil.example.com"));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN, "spiffe://mesh/payments").build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(failure.getDescription())
        .contains("cluster payments")
        .contains("[evil.example.com]")
        .contains("[exact \"payments.example.com\", exact \"spiffe://mesh/payments\"]");
    assertThat(a.connectionsOpened()).isZero();
  }

  // gRFC A29: an IP SAN is compared in its canonical text form (RFC 5952), as is the matcher's IP.
  @Test
  void ipv6SanMatchesAnExactMatcherInCanonicalForm() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", "2001:db8::1"));
    serve(XdsResources.cluster("payments").mutualTls("default", "2001:db8::1").build(), a);

    ManagedChannel channel = channel(XdsClusterCredentials.create());

    assertThat(BackendCalls.calls(channel, 10)).isEqualTo(Map.of("a", 10));
  }

  @Test
  void sanMismatchListsTheCertificatesIpSansInCanonicalForm() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", "api.example.com", "2001:db8::2", "10.0.0.2"));
    serve(XdsResources.cluster("payments").mutualTls("default", "2001:DB8:0:0::1").build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getDescription())
        .contains("cluster payments: server certificate CN=backend-a has subject alternative names "
            + "[api.example.com, 2001:db8::2, 10.0.0.2], none of which matches match_subject_alt_names "
            + "[exact \"2001:db8::1\"]");
  }

  @Test
  void partialLabelWildcardCertificateServesTheNameItCovers() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", "api-*.example.com"));
    serve(XdsResources.cluster("payments").mutualTls("default", "api-7.example.com").build(), a);

    ManagedChannel channel = channel(XdsClusterCredentials.create());

    assertThat(BackendCalls.calls(channel, 10)).isEqualTo(Map.of("a", 10));
  }

  @Test
  void untrustedRootFailsRpcsNamingTheIssuer() throws Exception {
    TestBackend a = tlsBackend("a", TestPki.create("rogue-ca").issue("backend-a", SAN));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN).build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(failure.getDescription())
        .contains("cluster payments")
        .contains("issued by CN=rogue-ca")
        .contains("is not trusted by the roots of certificate provider \"default\" [CN=mesh-ca]");
  }

  @Test
  void systemRootCertsVerifyWithTheJvmTrustStoreWhichDoesNotKnowTheTestCa() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    serve(XdsResources.cluster("payments").upstreamTls(UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setTlsCertificateProviderInstance(
                CertificateProviderPluginInstance.newBuilder().setInstanceName("default"))
            .setValidationContext(CertificateValidationContext.newBuilder()
                .setSystemRootCerts(CertificateValidationContext.SystemRootCerts.getDefaultInstance())))
        .build()).build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getDescription()).contains("cluster payments: server certificate CN=backend-a issued by "
        + "CN=mesh-ca is not trusted by the system trust store");
  }

  @Test
  void providerWithoutReadableFilesFailsRpcsNamingTheProviderAndTheFile() throws Exception {
    bed.useBootstrap(ads.bootstrap()
        .jxdsOption("client_retention", "0s")
        .fileWatcherProvider("default", cert("client"), key("client"), caFile, "100ms")
        .fileWatcherProvider("missing", dir.resolve("nope.crt"), dir.resolve("nope.key"), null, null)
        .build());
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    serve(XdsResources.cluster("payments").upstreamTls(UpstreamTlsContext.newBuilder()
        .setCommonTlsContext(CommonTlsContext.newBuilder()
            .setTlsCertificateProviderInstance(
                CertificateProviderPluginInstance.newBuilder().setInstanceName("missing"))
            .setValidationContext(CertificateValidationContext.newBuilder()
                .setCaCertificateProviderInstance(
                    CertificateProviderPluginInstance.newBuilder().setInstanceName("default"))))
        .build()).build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getDescription()).contains("cluster payments: certificate provider \"missing\" has no "
        + "certificate to present (certificate_providers \"missing\": cannot read " + dir.resolve("nope.crt"));
    assertThat(a.connectionsOpened()).isZero();
  }

  @Test
  void credentialsUsedOutsideAnXdsClusterChannelFailTheHandshakeRatherThanSkipVerification() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    ManagedChannel channel = Grpc.newChannelBuilder("dns:///127.0.0.1:" + a.port(), XdsClusterCredentials.create())
        .build();
    bed.track(channel);

    Status failure = BackendCalls.failure(channel);

    assertThat(failure.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(a.connectionsOpened()).isZero();
  }

  @Test
  void plaintextChannelGivenATlsClusterFailsSayingWhichCredentialsToUse() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN).build(), a);

    ManagedChannel channel = channel(InsecureChannelCredentials.create());
    Status failure = awaitFailure(channel);

    assertThat(failure.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(failure.getDescription()).startsWith("cluster payments asks for TLS").contains(
        "io.jxds.balancer.XdsClusterCredentials.create()").contains("InsecureChannelCredentials");
    assertThat(BackendCalls.failure(channel).getDescription()).isEqualTo(failure.getDescription());
    assertThat(a.connectionsOpened()).isZero();
  }

  @Test
  void plaintextClusterOnXdsClusterCredentialsFailsInsteadOfDowngrading() throws Exception {
    TestBackend a = backends.start("a");
    serve(XdsResources.cluster("payments").build(), a);

    Status failure = awaitFailure(channel(XdsClusterCredentials.create()));

    assertThat(failure.getDescription()).startsWith("cluster payments has no transport_socket (plaintext)")
        .contains("never downgrades");
    assertThat(a.connectionsOpened()).isZero();
  }

  @Test
  void controlPlaneChangesOfSansAndProviderApplyToNewConnections() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    TestBackend b = tlsBackend("b", ca.issue("backend-b", "b.example.com"));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN).build(), a);
    ManagedChannel channel = channel(XdsClusterCredentials.create());
    assertThat(BackendCalls.calls(channel, 10)).isEqualTo(Map.of("a", 10));

    // b's certificate does not carry the SAN: its connection is refused, a keeps serving alone.
    ads.setEndpoints(endpoints(a, b).build());
    Poll.until("b refused", WAIT, () -> BackendCalls.calls(channel, 10).equals(Map.of("a", 10))
        && b.connectionsOpened() == 0 && a.connectionsOpened() == 1);

    // The control plane adds b's SAN and switches to provider "other": b's next connection uses both.
    ads.setClusters(XdsResources.cluster("payments").mutualTls("other", SAN, "b.example.com").build());
    BackendCalls.awaitCalls(channel, 20, WAIT, w -> w.getOrDefault("b", 0) > 0 && !w.containsKey(FAILED));
    assertThat(b.clientSubjects()).containsOnly("CN=other-client");
    assertThat(a.clientSubjects()).as("a's connection was made before the change").containsOnly("CN=client-1");
  }

  @Test
  void rotatedCertificateServesNewConnectionsWithoutFailingRpcsUnderLoad() throws Exception {
    TestBackend a = tlsBackend("a", ca.issue("backend-a", SAN));
    TestBackend b = tlsBackend("b", ca.issue("backend-b", SAN));
    serve(XdsResources.cluster("payments").mutualTls("default", SAN).build(), a);
    ManagedChannel channel = channel(XdsClusterCredentials.create());
    assertThat(BackendCalls.calls(channel, 10)).isEqualTo(Map.of("a", 10));

    try (Load load = new Load(channel, 4)) {
      ca.issue("client-2", "spiffe://mesh/ns/default/sa/client").write(dir.resolve("client"));
      Poll.until("the provider read the new pair", WAIT, () -> providerSubject().equals("CN=client-2"));
      ads.setEndpoints(endpoints(a, b).build()); // b's connection is the first made after the rotation
      Poll.until("b serves", WAIT, () -> load.callsTo("b") > 100);
      assertThat(load.failures()).as("failed RPCs, last: %s", load.lastFailure()).isZero();
      assertThat(load.callsTo("a")).isPositive();
    }
    assertThat(b.clientSubjects()).containsOnly("CN=client-2");
    assertThat(a.clientSubjects()).containsOnly("CN=client-1");
  }

  /** The subject the pooled client's provider "default" serves now. */
  private static String providerSubject() {
    try (XdsClientPool.Lease lease = XdsClientPool.shared().acquire()) {
      return lease.certificateProviders().get("default").material().certificateChain().get(0)
          .getSubjectX500Principal().getName();
    } catch (BootstrapException e) {
      throw new AssertionError(e);
    }
  }

  /** Unary RPCs in a loop on a few threads until closed, counted per backend. */
  private static final class Load implements AutoCloseable {
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final AtomicReference<Status> lastFailure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;

    Load(ManagedChannel channel, int n) {
      for (int i = 0; i < n; i++) {
        Thread t = new Thread(() -> {
          while (!stop) {
            String who;
            try {
              who = new String(ClientCalls.blockingUnaryCall(channel, TestBackend.NAME_METHOD,
                  CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), new byte[0]), StandardCharsets.UTF_8);
            } catch (StatusRuntimeException e) {
              lastFailure.set(e.getStatus());
              who = FAILED;
            }
            calls.computeIfAbsent(who, k -> new AtomicLong()).incrementAndGet();
          }
        }, "tls-load-" + i);
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
    }

    long callsTo(String backend) {
      AtomicLong n = calls.get(backend);
      return n == null ? 0 : n.get();
    }

    long failures() {
      return callsTo(FAILED);
    }

    Status lastFailure() {
      return lastFailure.get();
    }

    @Override
    public void close() throws InterruptedException {
      stop = true;
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
  }

  private Status awaitFailure(ManagedChannel channel) {
    Status[] last = new Status[1];
    Poll.until("RPCs fail", WAIT, () -> {
      last[0] = BackendCalls.outcome(channel).orElse(null);
      return last[0] != null && last[0].getDescription() != null
          && !last[0].getDescription().contains("no usable") && last[0].getCode() == Status.Code.UNAVAILABLE;
    });
    return last[0];
  }

  private TestBackend tlsBackend(String name, TestPki.Identity identity) throws IOException {
    Path base = dir.resolve("backend-" + name);
    identity.write(base);
    ServerCredentials credentials = TlsServerCredentials.newBuilder()
        .keyManager(cert(base).toFile(), key(base).toFile())
        .trustManager(caFile.toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build();
    return backends.start(name, credentials);
  }

  private void serve(io.envoyproxy.envoy.config.cluster.v3.Cluster cluster, TestBackend... endpoints) {
    ads.setClusters(cluster);
    ads.setEndpoints(endpoints(endpoints).build());
  }

  private static EndpointsBuilder endpoints(TestBackend... backends) {
    return XdsResources.endpoints("payments").locality("r", "z", "", l -> {
      l.priority(0).weight(1);
      for (TestBackend b : backends) {
        l.endpoint("127.0.0.1", b.port(), HEALTHY);
      }
    });
  }

  private ManagedChannel channel(ChannelCredentials credentials) {
    return bed.newChannel("payments", credentials);
  }

  private Path cert(String base) {
    return cert(dir.resolve(base));
  }

  private Path key(String base) {
    return key(dir.resolve(base));
  }

  private static Path cert(Path base) {
    return TestPki.Identity.certificateFile(base);
  }

  private static Path key(Path base) {
    return TestPki.Identity.keyFile(base);
  }
}
