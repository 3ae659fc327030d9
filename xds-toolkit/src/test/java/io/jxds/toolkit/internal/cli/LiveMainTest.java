package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.grpc.TlsServerCredentials;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.FakeAdsServerExtension;
import io.jxds.testing.TestPki;
import io.jxds.testing.XdsResources;
import io.jxds.toolkit.LiveResources;
import io.jxds.toolkit.internal.read.JsonNode;
import io.jxds.toolkit.internal.read.JsonText;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./jxds check --xds-server}: exit codes and output of a live check against FakeAdsServer. */
class LiveMainTest {
  /** Generous for a loaded machine: a fetch ends as soon as everything is answered. */
  private static final String ANSWER = "30s";

  @RegisterExtension final FakeAdsServerExtension ads = FakeAdsServerExtension.loopback();
  @TempDir Path dir;

  private static MainRun run(String... args) {
    return MainRun.of(args);
  }

  private static void serve(FakeAdsServer server) {
    LiveResources.serve(server);
  }

  @Test
  void aListenerFetchedLiveIsCheckedAndPlannedAsFromAFile() throws Exception {
    serve(ads.server());

    MainRun r = run("check", "--xds-server", ads.server().serverUri(), "--node", "ci", "--listener", "svc",
        "--timeout", ANSWER);

    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("resources: 6, 6 accepted, 0 NACKed")
        .containsPattern("LDS +svc +accepted +live version 1")
        .contains("cluster payments: SERVING, round_robin, priority 0 serves")
        .containsPattern("10\\.0\\.0\\.3:8080 +HEALTHY +1 +37\\.500% \\(3/8\\)")
        .containsPattern("0 +split +prefix \"/\" +payments 90 \\(90\\.000%\\), payments-v2 10 \\(10\\.000%\\)");
    Path file = dir.resolve("same.json");
    Files.writeString(file, "[" + String.join(",", LiveResources.all().stream()
        .map(LiveMainTest::json).toList()) + "]");
    String fromFile = run("check", file.toString()).out();
    assertThat(withoutSources(r.out())).isEqualTo(withoutSources(fromFile));
  }

  @Test
  void jsonOfALiveCheck() throws Exception {
    serve(ads.server());

    MainRun r = run("check", "--json", "--xds-server", ads.server().serverUri(), "--node", "ci", "--cluster",
        "payments", "--timeout", ANSWER);

    JsonNode root = JsonText.parse(r.out());
    assertThat(root.stringMember("schema")).isEqualTo("jxds.check/v1");
    assertThat(root.member("clusters").elements()).singleElement()
        .satisfies(c -> assertThat(c.stringMember("state")).isEqualTo("SERVING"));
    assertThat(r.code()).isZero();
  }

  @Test
  void aNackExitsOneWithTheClientsText() {
    ads.server().setClusters(XdsResources.cluster("payments").lrsServer(XdsResources.adsConfigSource()).build());

    MainRun r = run("check", "--xds-server", ads.server().serverUri(), "--node", "ci", "--cluster", "payments",
        "--timeout", ANSWER);

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("NACK CDS \"payments\": ").contains("lrs_server must be self")
        .contains("cluster payments: CLUSTER_NACKED");
  }

  @Test
  void aMissingResourceExitsTwoNamingItAndTheServer() {
    serve(ads.server());

    MainRun r = run("check", "--xds-server", ads.server().serverUri(), "--node", "ci", "--cluster", "nope",
        "--timeout", ANSWER);

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("jxds: xDS server " + ads.server().serverUri() + ": cluster \"nope\" does not"
        + " exist: the control plane's state-of-the-world response leaves it out (as node \"ci\")\n");
  }

  @Test
  void anUnreachableServerExitsTwoWithinTheTimeout() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    MainRun r =
        run("check", "--xds-server", "127.0.0.1:" + port, "--node", "ci", "--listener", "svc", "--timeout", "1s");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("jxds: xDS server 127.0.0.1:" + port + ": listener \"svc\": no answer from the"
        + " control plane within 1s").doesNotContain("\tat ");
  }

  @Test
  void badArgumentsExitTwo() throws Exception {
    Path file = Files.writeString(dir.resolve("x.json"), "[]");
    assertThat(run("check", "--xds-server", "127.0.0.1:1", "--listener", "svc").err())
        .contains("--xds-server needs --node ID");
    assertThat(run("check", "--xds-server", "127.0.0.1:1", "--node", "n").err())
        .contains("--xds-server needs one of --listener NAME and --cluster NAME");
    assertThat(run("check", "--xds-server", "127.0.0.1:1", "--node", "n", "--listener", "a", file.toString()).code())
        .isEqualTo(2);
    assertThat(run("check", "--node", "n", file.toString()).err()).contains("go with --xds-server");
    assertThat(run("check", "--xds-server", "127.0.0.1:1", "--node", "n", "--cluster", "c", "--timeout", "soon")
        .err()).contains("--timeout soon: \"soon\" is not a duration");
    assertThat(run("check").code()).isEqualTo(2);
  }

  @Test
  void overTlsWithTheGivenCa() throws Exception {
    TestPki ca = TestPki.create("xds-ca");
    ca.issue("xds-server", "127.0.0.1").write(dir.resolve("server"));
    Path caFile = ca.writeCertificate(dir.resolve("ca.pem"));
    FakeAdsServer secure = FakeAdsServer.loopback().serverCredentials(TlsServerCredentials.create(
        TestPki.Identity.certificateFile(dir.resolve("server")).toFile(),
        TestPki.Identity.keyFile(dir.resolve("server")).toFile()));
    try {
      secure.start();
      serve(secure);

      MainRun r = run("check", "--xds-server", secure.serverUri(), "--node", "ci", "--cluster", "payments",
          "--ca-certificate", caFile.toString(), "--timeout", ANSWER);

      assertThat(r.err()).isEmpty();
      assertThat(r.code()).isZero();
      assertThat(r.out()).contains("cluster payments: SERVING");
      MainRun plaintext = run("check", "--xds-server", secure.serverUri(), "--node", "ci", "--cluster", "payments",
          "--timeout", "1s");
      assertThat(plaintext.code()).isEqualTo(2);
    } finally {
      secure.close();
    }
  }

  @Test
  void aBootstrapGivesTheClientItsCertificateProvidersAsTheApplicationsHas() throws Exception {
    ads.server().setClusters(XdsResources.cluster("payments").upstreamTls("", "default").build());
    ads.server().setEndpoints(XdsResources.endpoints("payments")
        .locality("us", "a", "", l -> l.endpoint("10.0.0.1", 443, HealthStatus.HEALTHY))
        .build());
    Path caFile = TestPki.create("upstream-ca").writeCertificate(dir.resolve("ca.pem"));
    Path bootstrap = Files.writeString(dir.resolve("bootstrap.json"), ads.server().bootstrap().nodeId("ci")
        .fileWatcherProvider("default", null, null, caFile, null).build());

    MainRun withoutProviders = run("check", "--xds-server", ads.server().serverUri(), "--node", "ci", "--cluster",
        "payments", "--timeout", ANSWER);
    MainRun withBootstrap =
        run("check", "--bootstrap", bootstrap.toString(), "--cluster", "payments", "--timeout", ANSWER);

    assertThat(withoutProviders.code()).isEqualTo(1);
    assertThat(withoutProviders.out()).contains("certificate_providers");
    assertThat(withBootstrap.err()).isEmpty();
    assertThat(withBootstrap.code()).isZero();
    assertThat(withBootstrap.out()).contains("cluster payments: SERVING").contains("TLS, roots default");
    assertThat(run("check", "--bootstrap", dir.resolve("none.json").toString(), "--cluster", "payments").err())
        .startsWith("jxds: bootstrap " + dir.resolve("none.json"));
    assertThat(run("check", "--bootstrap", bootstrap.toString(), "--xds-server", "127.0.0.1:1", "--cluster", "c")
        .err()).contains("either --bootstrap or --xds-server");
  }

  private static String json(com.google.protobuf.Message m) {
    try {
      return JsonFormat.printer().usingTypeRegistry(JsonFormat.TypeRegistry.newBuilder()
          .add(List.of(m.getDescriptorForType(), HttpConnectionManager.getDescriptor(), Router.getDescriptor()))
          .build())
          .print(com.google.protobuf.Any.pack(m));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The output without the SOURCE column's values (live version 1 / FILE:LINE). */
  private static String withoutSources(String out) {
    return out.replaceAll("live version 1|\\S+\\.json:\\d+ \\[\\d+\\]", "SOURCE").replaceAll(" +", " ");
  }
}
