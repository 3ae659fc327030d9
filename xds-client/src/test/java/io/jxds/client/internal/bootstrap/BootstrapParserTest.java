package io.jxds.client.internal.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.jxds.client.bootstrap.Authority;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.CertificateProviderSpec;
import io.jxds.client.bootstrap.ChannelCredentialsSpec;
import io.jxds.client.bootstrap.ServerInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class BootstrapParserTest {
  private static final String SRC = "test";

  private static Bootstrap parse(String json) throws BootstrapException {
    return BootstrapParser.parse(json, SRC);
  }

  private static String withServer(String server) {
    return "{\"xds_servers\":[" + server + "]}";
  }

  @TempDir static Path tmp;

  @Test
  void parsesEveryField() throws Exception {
    Path caFile = Files.writeString(tmp.resolve("ca.pem"), "not checked until the channel is built");
    Bootstrap b =
        parse(
            """
            {
              "xds_servers": [{
                "server_uri": "xds.example.com:443",
                "channel_creds": [{"type": "some_future_type"}, {"type": "tls",
                    "config": {"ca_certificate_file": "CA_FILE"}}],
                "server_features": ["xds_v3", "ignore_resource_deletion"]
              }, {
                "server_uri": "backup:18000",
                "channel_creds": [{"type": "insecure"}]
              }],
              "node": {
                "id": "app-1",
                "cluster": "payments",
                "locality": {"region": "eu", "zone": "eu-1a", "sub_zone": "rack7"},
                "metadata": {"team": "core", "canary": true, "n": 3}
              },
              "certificate_providers": {"default": {"plugin_name": "file_watcher",
                  "config": {"ca_certificate_file": "/ca.pem"}}},
              "jxds": {"resource_timeout": "2s", "client_retention": "0s"}
            }
            """.replace("CA_FILE", caFile.toString()));
    ServerInfo first = b.server();
    assertThat(first.serverUri()).isEqualTo("xds.example.com:443");
    assertThat(first.channelCredentials())
        .isEqualTo(new ChannelCredentialsSpec("tls", Optional.of(caFile.toString()), Optional.empty(), Optional
            .empty()));
    assertThat(first.ignoreResourceDeletion()).isTrue();
    assertThat(b.servers()).hasSize(2);
    assertThat(b.servers().get(1).ignoreResourceDeletion()).isFalse();
    Node node = b.node();
    assertThat(node.getId()).isEqualTo("app-1");
    assertThat(node.getCluster()).isEqualTo("payments");
    assertThat(node.getLocality().getRegion()).isEqualTo("eu");
    assertThat(node.getLocality().getZone()).isEqualTo("eu-1a");
    assertThat(node.getLocality().getSubZone()).isEqualTo("rack7");
    assertThat(node.getMetadata().getFieldsOrThrow("team").getStringValue()).isEqualTo("core");
    assertThat(node.getMetadata().getFieldsOrThrow("canary").getBoolValue()).isTrue();
    assertThat(node.getMetadata().getFieldsOrThrow("n").getNumberValue()).isEqualTo(3.0);
    assertThat(node.getUserAgentName()).isEqualTo("jxds");
    assertThat(b.resourceTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(b.clientRetention()).isEqualTo(Duration.ZERO);
    assertThat(b.certificateProviders()).containsOnlyKeys("default");
  }

  @Test
  void istioAgentGrpcBootstrapParses() throws Exception {
    // The shape istio-agent writes for proxyless gRPC (GRPC_XDS_BOOTSTRAP): ADS on its unix socket.
    Bootstrap b = parse("""
        {
          "xds_servers": [{
            "server_uri": "unix:///./etc/istio/proxy/XDS",
            "channel_creds": [{"type": "insecure"}],
            "server_features": ["xds_v3"]
          }],
          "node": {
            "id": "sidecar~10.0.0.1~echo-v1-7d9f.default~default.svc.cluster.local",
            "locality": {"region": "us-east1", "zone": "us-east1-b"},
            "metadata": {
              "GENERATOR": "grpc", "NAMESPACE": "default", "CLUSTER_ID": "Kubernetes",
              "LABELS": {"app": "echo", "version": "v1"}, "INSTANCE_IPS": "10.0.0.1"
            }
          },
          "certificate_providers": {"default": {"plugin_name": "file_watcher", "config": {
            "certificate_file": "/var/lib/istio/data/cert-chain.pem",
            "private_key_file": "/var/lib/istio/data/key.pem",
            "ca_certificate_file": "/var/lib/istio/data/root-cert.pem",
            "refresh_interval": "900s"}}},
          "server_listener_resource_name_template": "xds.istio.io/grpc/lds/inbound/%s"
        }
        """);

    assertThat(b.server().serverUri()).isEqualTo("unix:///./etc/istio/proxy/XDS");
    assertThat(b.server().channelCredentials().toChannelCredentials()).isInstanceOf(InsecureChannelCredentials.class);
    assertThat(b.node().getMetadata().getFieldsOrThrow("GENERATOR").getStringValue()).isEqualTo("grpc");
    assertThat(b.node().getMetadata().getFieldsOrThrow("LABELS").getStructValue().getFieldsOrThrow("version")
        .getStringValue()).isEqualTo("v1");
    assertThat(b.node().getLocality().getZone()).isEqualTo("us-east1-b");
  }

  @Test
  void firstSupportedChannelCredsWins() throws Exception {
    Bootstrap insecureFirst =
        parse(withServer("{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"},{\"type\":\"tls\"}]}"));
    assertThat(insecureFirst.server().channelCredentials()).isEqualTo(ChannelCredentialsSpec.insecure());
    assertThat(insecureFirst.server().channelCredentials().toChannelCredentials())
        .isInstanceOf(InsecureChannelCredentials.class);
    Bootstrap tls =
        parse(withServer("{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"tls\"},{\"type\":\"insecure\"}]}"));
    assertThat(tls.server().channelCredentials()).isEqualTo(ChannelCredentialsSpec.tls());
    assertThat(tls.server().channelCredentials().toChannelCredentials()).isInstanceOf(TlsChannelCredentials.class);
  }

  @Test
  void unreadableTlsFileIsAnErrorNamingTheField() {
    String missing = tmp.resolve("missing-ca.pem").toString();
    assertThatThrownBy(() -> parse(withServer("{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"tls\","
            + "\"config\":{\"ca_certificate_file\":\"" + missing + "\"}}]}")))
        .isInstanceOf(BootstrapException.class)
        .hasMessageContaining("test: ")
        .hasMessageContaining("ca_certificate_file")
        .hasMessageContaining("cannot read file \"" + missing + "\"");
  }

  @Test
  void noSupportedChannelCredsIsAnError() {
    assertThatThrownBy(
            () -> parse(withServer("{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"some_future_type\"}]}")))
        .isInstanceOf(BootstrapException.class)
        .hasMessage(
            "test: xds_servers[0].channel_creds no supported type (jxds supports insecure, tls and google_default), "
                + "got [some_future_type]");
  }

  @Test
  void errorsNameTheField() {
    assertThatThrownBy(() -> parse("{}")).hasMessage("test: xds_servers is required and must not be empty");
    assertThatThrownBy(() -> parse(withServer("{\"channel_creds\":[{\"type\":\"insecure\"}]}")))
        .hasMessage("test: xds_servers[0].server_uri is required");
    assertThatThrownBy(() -> parse(withServer("{\"server_uri\":\"a:1\"}")))
        .hasMessage("test: xds_servers[0].channel_creds is required and must not be empty");
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    assertThatThrownBy(() -> parse("{\"xds_servers\":[" + server + "],\"jxds\":{\"resource_timeout\":\"soon\"}}"))
        .hasMessageStartingWith("test: jxds.resource_timeout is invalid: \"soon\" is not a duration");
    assertThatThrownBy(() -> parse("{\"xds_servers\":[" + server + "],\"jxds\":{\"resource_timeout\":\"0s\"}}"))
        .hasMessageStartingWith("test: jxds.resource_timeout must be positive");
    assertThatThrownBy(() -> parse("[1]")).hasMessageStartingWith("test: bad JSON");
  }

  @Test
  void errorsNameTheFieldAndTheValue() {
    assertThatThrownBy(() -> parse("{\"xds_servers\":[]}"))
        .hasMessage("test: xds_servers is required and must not be empty, got []");
    assertThatThrownBy(() -> parse("{\"xds_servers\":\"xds.example.com:443\"}"))
        .hasMessage("test: xds_servers must be a list, got \"xds.example.com:443\"");
    assertThatThrownBy(() -> parse("{\"xds_servers\":[3]}"))
        .hasMessage("test: xds_servers[0] must be an object, got 3");
    assertThatThrownBy(() -> parse(withServer("{\"server_uri\":\"\",\"channel_creds\":[{\"type\":\"insecure\"}]}")))
        .hasMessage("test: xds_servers[0].server_uri is required, got \"\"");
    assertThatThrownBy(() -> parse(withServer("{\"server_uri\":\"a:1\",\"channel_creds\":[]}")))
        .hasMessage("test: xds_servers[0].channel_creds is required and must not be empty, got []");
    assertThatThrownBy(() -> parse(withServer("{\"server_uri\":7,\"channel_creds\":[{\"type\":\"insecure\"}]}")))
        .hasMessage("test: xds_servers[0].server_uri must be a string, got 7");
    assertThatThrownBy(() -> parse(withServer(
            "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}],\"server_features\":[\"x\",true]}")))
        .hasMessage("test: xds_servers[0].server_features must be a list of strings, got [\"x\",true]");
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    assertThatThrownBy(() -> parse("{\"xds_servers\":[" + server + "],\"node\":{\"locality\":\"eu\"}}"))
        .hasMessage("test: node.locality must be an object, got \"eu\"");
    assertThatThrownBy(() -> parse("{\"xds_servers\":[" + server + "],\"node\":{\"id\":{\"name\":\"a\"}}}"))
        .hasMessage("test: node.id must be a string, got {\"name\":\"a\"}");
    assertThatThrownBy(() -> parse("{\"xds_servers\":[" + server + "],\"jxds\":{\"resource_timeout\":1.5}}"))
        .hasMessage("test: jxds.resource_timeout must be a string, got 1.5");
  }

  @Test
  void unknownJxdsFieldsAreEachAWarningNamingTheLikelyField() {
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    List<String> warnings = warnings(() -> parse("{\"xds_servers\":[" + server + "],"
        + "\"jxds\":{\"resource_timout\":\"2s\",\"verbose\":true,\"client_retention\":\"1m\"}}"));

    assertThat(warnings).containsExactly(
        "test: unknown bootstrap field jxds.resource_timout ignored; did you mean jxds.resource_timeout?",
        "test: unknown bootstrap field jxds.verbose ignored (jxds knows client_retention, resource_timeout)");
  }

  @Test
  void misspelledTopLevelOrNodeFieldIsAWarningAndOtherUnknownFieldsAreQuiet() {
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    List<String> warnings = warnings(() -> parse("{\"xds_servers\":[" + server + "],"
        + "\"nodes\":{\"id\":\"a\"},\"certificate_provider\":{},\"node\":{\"ids\":\"b\",\"team\":\"x\"},"
        + "\"server_listener_resource_name_template\":\"x/%s\",\"istio_extension\":{}}"));

    assertThat(warnings).containsExactly(
        "test: unknown bootstrap field nodes ignored; did you mean node?",
        "test: unknown bootstrap field certificate_provider ignored; did you mean certificate_providers?",
        "test: unknown bootstrap field node.ids ignored; did you mean node.id?");
  }

  @Test
  void eachUnknownFieldIsWarnedOnceNotOnEveryRead() {
    String json = "{\"xds_servers\":[{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}],"
        + "\"jxds\":{\"client_retension\":\"1m\"}}";
    List<String> first = warnings(() -> BootstrapParser.parse(json, "once"));
    List<String> second = warnings(() -> BootstrapParser.parse(json, "once"));

    assertThat(first).hasSize(1);
    assertThat(second).as("the bootstrap is read on every client acquisition").isEmpty();
  }

  /** The WARN lines {@code parse} logs. */
  private static List<String> warnings(ThrowingCallable parse) {
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger("io.jxds");
    appender.start();
    logger.addAppender(appender);
    try {
      parse.call();
    } catch (Throwable t) {
      throw new AssertionError(t);
    } finally {
      logger.detachAppender(appender);
    }
    return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Test
  void bootstrapDurationsFollowTheOneDocumentedSyntax() {
    // The balancer's config rejects these; the bootstrap must not read them differently.
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    for (String text : new String[] {"1.s", "1e3s", " 2s", "+2s"}) {
      String json = "{\"xds_servers\":[" + server + "],\"jxds\":{\"resource_timeout\":\"" + text + "\"}}";
      assertThatThrownBy(() -> parse(json))
          .as(text)
          .isInstanceOf(BootstrapException.class)
          .hasMessageContaining("jxds.resource_timeout");
    }
  }

  @Test
  void keyIsServersAndNodeNotTimers() throws Exception {
    String server = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";
    Bootstrap a =
        parse("{\"xds_servers\":[" + server + "],\"node\":{\"id\":\"x\"},\"jxds\":{\"resource_timeout\":\"2s\"}}");
    Bootstrap b = parse("{\"xds_servers\":[" + server + "],\"node\":{\"id\":\"x\"}}");
    Bootstrap c = parse("{\"xds_servers\":[" + server + "],\"node\":{\"id\":\"y\"}}");
    assertThat(a.key()).isEqualTo(b.key());
    assertThat(a.key()).isNotEqualTo(c.key());
  }

  private static final String SERVER = "{\"server_uri\":\"a:1\",\"channel_creds\":[{\"type\":\"insecure\"}]}";

  private static Bootstrap withProviders(String providers) throws BootstrapException {
    return parse("{\"xds_servers\":[" + SERVER + "],\"certificate_providers\":" + providers + "}");
  }

  @Test
  void fileWatcherProvidersAreRead() throws Exception {
    Bootstrap b = withProviders("""
        {"default": {"plugin_name": "file_watcher", "config": {"certificate_file": "/c.pem",
          "private_key_file": "/k.pem", "ca_certificate_file": "/ca.pem", "refresh_interval": "30s"}},
         "roots": {"plugin_name": "file_watcher", "config": {"ca_certificate_file": "/roots.pem"}}}""");
    assertThat(b.certificateProviders()).containsOnlyKeys("default", "roots");
    assertThat(b.certificateProviders().get("default")).isEqualTo(new CertificateProviderSpec(
        Optional.of("/c.pem"), Optional.of("/k.pem"), Optional.of("/ca.pem"), Duration.ofSeconds(30)));
    assertThat(b.certificateProviders().get("roots")).isEqualTo(new CertificateProviderSpec(
        Optional.empty(), Optional.empty(), Optional.of("/roots.pem"), Duration.ofMinutes(10)));
    assertThat(parse("{\"xds_servers\":[" + SERVER + "]}").certificateProviders()).isEmpty();
  }

  @Test
  void badCertificateProvidersAreErrorsNamingTheField() {
    assertThatThrownBy(() -> withProviders("{\"p\": {\"plugin_name\": \"meshca\", \"config\": {}}}"))
        .hasMessage("test: certificate_providers.p.plugin_name must be file_watcher, got \"meshca\"");
    assertThatThrownBy(() -> withProviders("{\"p\": {\"config\": {}}}"))
        .hasMessage("test: certificate_providers.p.plugin_name is required");
    assertThatThrownBy(() -> withProviders("{\"p\": {\"plugin_name\": \"file_watcher\"}}"))
        .hasMessage("test: certificate_providers.p.config is required");
    assertThatThrownBy(() -> withProviders("{\"p\": 3}"))
        .hasMessage("test: certificate_providers.p must be an object, got 3");
    assertThatThrownBy(() -> withProviders(
            "{\"p\": {\"plugin_name\": \"file_watcher\", \"config\": {\"certificate_file\": \"/c\"}}}"))
        .hasMessage("test: certificate_providers.p.config.private_key_file is required when the other of "
            + "certificate_file/private_key_file is set");
    assertThatThrownBy(() -> withProviders("{\"p\": {\"plugin_name\": \"file_watcher\", \"config\": {}}}"))
        .hasMessage("test: certificate_providers.p.config.certificate_file and private_key_file, or "
            + "ca_certificate_file, is required");
    assertThatThrownBy(() -> withProviders("{\"p\": {\"plugin_name\": \"file_watcher\", \"config\": "
            + "{\"ca_certificate_file\": \"/ca\", \"refresh_interval\": \"soon\"}}}"))
        .hasMessageStartingWith("test: certificate_providers.p.config.refresh_interval is invalid");
    assertThatThrownBy(() -> withProviders("{\"p\": {\"plugin_name\": \"file_watcher\", \"config\": "
            + "{\"ca_certificate_file\": \"/ca\", \"refresh_interval\": \"0s\"}}}"))
        .hasMessage("test: certificate_providers.p.config.refresh_interval must be positive, got 0s");
  }

  @Test
  void certificateProvidersArePartOfTheKey() throws Exception {
    String provider = "{\"p\": {\"plugin_name\": \"file_watcher\", \"config\": {\"ca_certificate_file\": \"%s\"}}}";
    Bootstrap a = withProviders(provider.formatted("/a"));
    Bootstrap b = withProviders(provider.formatted("/b"));
    assertThat(a.key()).isNotEqualTo(b.key());
  }

  private static Bootstrap withTop(String fields) throws BootstrapException {
    return parse("{\"xds_servers\":[" + SERVER + "]," + fields + "}");
  }

  @Test
  void theDefaultListenerTemplateIsReadAndIsPercentSWithoutOne() throws Exception {
    assertThat(withTop("\"client_default_listener_resource_name_template\":\"xds.example.com/listeners/%s\"")
        .clientDefaultListenerResourceNameTemplate()).isEqualTo("xds.example.com/listeners/%s");
    assertThat(parse(withServer(SERVER)).clientDefaultListenerResourceNameTemplate()).isEqualTo("%s");
    assertThatThrownBy(() -> withTop("\"client_default_listener_resource_name_template\":7"))
        .hasMessage("test: client_default_listener_resource_name_template must be a string, got 7");
  }

  @Test
  void authoritiesAreReadWithTheirTemplatesAndServers() throws Exception {
    Bootstrap b = withTop("""
        "authorities": {
          "td.example": {"client_listener_resource_name_template":
              "xdstp://td.example/envoy.config.listener.v3.Listener/grpc/%s",
            "xds_servers": [{"server_uri": "td.example:443", "channel_creds": [{"type": "insecure"}]}]},
          "plain.example": {},
          "": {"client_listener_resource_name_template": "xdstp:///envoy.config.listener.v3.Listener/%s"}}""");

    assertThat(b.authorities()).containsOnlyKeys("td.example", "plain.example", "");
    assertThat(b.authorities().get("td.example")).isEqualTo(new Authority(
        Optional.of("xdstp://td.example/envoy.config.listener.v3.Listener/grpc/%s"),
        List.of(new ServerInfo("td.example:443", ChannelCredentialsSpec.insecure(), List.of()))));
    assertThat(b.authorities().get("plain.example")).isEqualTo(new Authority(Optional.empty(), List.of()));
    assertThat(b.authorities().get("").clientListenerResourceNameTemplate())
        .contains("xdstp:///envoy.config.listener.v3.Listener/%s");
    assertThat(parse(withServer(SERVER)).authorities()).isEmpty();
  }

  @Test
  void anAuthoritysTemplateMustStartWithXdstpAndItsOwnName() {
    // gRFC A47: "client_listener_resource_name_template ... must start with xdstp://<authority_name>/".
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a.example\":"
        + "{\"client_listener_resource_name_template\":\"xdstp://b.example/envoy.config.listener.v3.Listener/%s\"}}"))
        .hasMessage("test: authorities.a.example.client_listener_resource_name_template must start with "
            + "\"xdstp://a.example/\", got \"xdstp://b.example/envoy.config.listener.v3.Listener/%s\"");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":{\"client_listener_resource_name_template\":\"%s\"}}"))
        .hasMessage("test: authorities.a.client_listener_resource_name_template must start with "
            + "\"xdstp://a/\", got \"%s\"");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":{\"client_listener_resource_name_template\":\"\"}}"))
        .hasMessage("test: authorities.a.client_listener_resource_name_template must start with "
            + "\"xdstp://a/\", got \"\"");
  }

  @Test
  void badAuthoritiesAreErrorsNamingTheFieldAndTheValue() {
    assertThatThrownBy(() -> withTop("\"authorities\":[]"))
        .hasMessage("test: authorities must be an object, got []");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":\"xdstp://a/\"}"))
        .hasMessage("test: authorities.a must be an object, got \"xdstp://a/\"");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":{\"client_listener_resource_name_template\":1}}"))
        .hasMessage("test: authorities.a.client_listener_resource_name_template must be a string, got 1");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":{\"xds_servers\":[{\"server_uri\":\"\"}]}}"))
        .hasMessage("test: authorities.a.xds_servers[0].server_uri is required, got \"\"");
    assertThatThrownBy(() -> withTop("\"authorities\":{\"a\":{\"xds_servers\":{}}}"))
        .hasMessage("test: authorities.a.xds_servers must be a list, got {}");
  }

  @Test
  void aMisspelledAuthorityFieldIsAWarning() {
    List<String> warnings = warnings(() -> withTop("\"authorities\":{\"w\":{\"xds_server\":[]}}"));

    assertThat(warnings).containsExactly(
        "test: unknown bootstrap field authorities.w.xds_server ignored; did you mean authorities.w.xds_servers?");
  }

  @Test
  void listenerTemplatesAndAuthoritiesArePartOfTheKey() throws Exception {
    Bootstrap plain = parse(withServer(SERVER));
    Bootstrap templated = withTop("\"client_default_listener_resource_name_template\":\"l/%s\"");
    Bootstrap federated = withTop("\"authorities\":{\"a\":{}}");

    assertThat(plain.key()).isNotEqualTo(templated.key()).isNotEqualTo(federated.key());
    assertThat(withTop("\"authorities\":{\"a\":{}}").key()).isEqualTo(federated.key());
    assertThat(federated.authorities()).isEqualTo(Map.of("a", new Authority(Optional.empty(), List.of())));
  }
}
