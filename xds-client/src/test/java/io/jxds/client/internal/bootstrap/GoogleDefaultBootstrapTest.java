package io.jxds.client.internal.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.alts.GoogleDefaultChannelCredentials;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.ChannelCredentialsSpec;
import org.junit.jupiter.api.Test;

/**
 * {@code channel_creds} {@code google_default} (Traffic Director) through grpc-alts, an optional
 * dependency, and {@code call_creds} (gRFC A97), which jxds refuses naming the field. No Google
 * service is reachable from a test: what is checked is that the bootstrap is accepted and that the
 * credentials are the ones grpc-java builds, not that Traffic Director accepts them.
 */
class GoogleDefaultBootstrapTest {
  /** The shape Traffic Director's bootstrap generator writes (gRFC A47 authorities included). */
  private static final String TRAFFIC_DIRECTOR = """
      {
        "xds_servers": [{
          "server_uri": "trafficdirector.googleapis.com:443",
          "channel_creds": [{"type": "google_default"}],
          "server_features": ["xds_v3", "ignore_resource_deletion"]
        }],
        "node": {"id": "projects/123/networks/default/nodes/5c9b", "cluster": "cluster",
                 "locality": {"zone": "us-central1-a"}},
        "authorities": {
          "traffic-director-global.xds.googleapis.com": {
            "client_listener_resource_name_template":
              "xdstp://traffic-director-global.xds.googleapis.com/envoy.config.listener.v3.Listener/123/default/%s"
          },
          "traffic-director-c2p.xds.googleapis.com": {
            "xds_servers": [{"server_uri": "dns:///directpath-pa.googleapis.com",
                             "channel_creds": [{"type": "google_default"}],
                             "server_features": ["xds_v3", "ignore_resource_deletion"]}],
            "client_listener_resource_name_template":
              "xdstp://traffic-director-c2p.xds.googleapis.com/envoy.config.listener.v3.Listener/%s"
          }
        },
        "client_default_listener_resource_name_template":
          "xdstp://traffic-director-global.xds.googleapis.com/envoy.config.listener.v3.Listener/123/default/%s"
      }
      """;

  /** A class loader that does not see grpc-alts, as an application without the dependency. */
  private static final ClassLoader WITHOUT_ALTS = new ClassLoader(GoogleDefaultBootstrapTest.class.getClassLoader()) {
    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("io.grpc.alts.")) {
        throw new ClassNotFoundException(name);
      }
      return super.loadClass(name, resolve);
    }
  };

  @Test
  void trafficDirectorBootstrapIsAccepted() throws Exception {
    Bootstrap b = BootstrapParser.parse(TRAFFIC_DIRECTOR, "td");

    assertThat(b.server().channelCredentials()).isEqualTo(ChannelCredentialsSpec.googleDefault());
    assertThat(b.authorities().get("traffic-director-c2p.xds.googleapis.com").servers().get(0).channelCredentials())
        .isEqualTo(ChannelCredentialsSpec.googleDefault());
    assertThat(b.clientDefaultListenerResourceNameTemplate())
        .startsWith("xdstp://traffic-director-global.xds.googleapis.com/");
  }

  @Test
  void googleDefaultCredentialsAreWhatGrpcJavaBuilds() throws Exception {
    ChannelCredentials ours = BootstrapParser.parse(TRAFFIC_DIRECTOR, "td").server().channelCredentials()
        .toChannelCredentials();
    ChannelCredentials grpcJavas = GoogleDefaultChannelCredentials.create();

    // TLS (a Netty negotiator) composed with OAuth2 call credentials from the application default
    // credentials; without those here, the call credentials fail every call, as in grpc-java.
    assertThat(ours).isInstanceOf(CompositeChannelCredentials.class);
    CompositeChannelCredentials composite = (CompositeChannelCredentials) ours;
    CompositeChannelCredentials expected = (CompositeChannelCredentials) grpcJavas;
    assertThat(composite.getChannelCredentials().getClass()).isEqualTo(expected.getChannelCredentials().getClass());
    assertThat(composite.getCallCredentials().getClass()).isEqualTo(expected.getCallCredentials().getClass());
  }

  @Test
  void googleDefaultWithoutGrpcAltsNamesTheArtifact() {
    assertThatThrownBy(() -> BootstrapParser.parse(TRAFFIC_DIRECTOR, "td", WITHOUT_ALTS))
        .isInstanceOf(BootstrapException.class)
        .hasMessage("td: xds_servers[0].channel_creds type \"google_default\" needs io.grpc:grpc-alts on the class "
            + "path (an optional dependency of jxds), got [google_default]");
  }

  @Test
  void googleDefaultWithoutGrpcAltsFallsToTheNextSupportedType() throws Exception {
    String json = "{\"xds_servers\":[{\"server_uri\":\"cp:443\",\"channel_creds\":"
        + "[{\"type\":\"google_default\"},{\"type\":\"tls\"}]}]}";

    assertThat(BootstrapParser.parse(json, "test", WITHOUT_ALTS).server().channelCredentials())
        .isEqualTo(ChannelCredentialsSpec.tls());
    assertThat(BootstrapParser.parse(json, "test").server().channelCredentials())
        .isEqualTo(ChannelCredentialsSpec.googleDefault());
  }

  @Test
  void jwtCallCredsAreRefusedNamingTheField() {
    String json = "{\"xds_servers\":[{\"server_uri\":\"istiod:15012\",\"channel_creds\":[{\"type\":\"tls\"}],"
        + "\"call_creds\":[{\"type\":\"jwt_token_file\",\"config\":{\"jwt_token_file\":\"/var/run/token\"}}]}]}";

    assertThatThrownBy(() -> BootstrapParser.parse(json, "test"))
        .isInstanceOf(BootstrapException.class)
        .hasMessage("test: xds_servers[0].call_creds[0] type \"jwt_token_file\" is not supported by jxds (gRFC A97 "
            + "call credentials); authenticate with channel_creds (tls with a client certificate, or google_default)");
  }

  @Test
  void callCredsOfAnUnknownTypeAreIgnored() throws Exception {
    // gRFC A97: a client applies the call credentials types it supports and ignores the others.
    String json = "{\"xds_servers\":[{\"server_uri\":\"cp:1\",\"channel_creds\":[{\"type\":\"insecure\"}],"
        + "\"call_creds\":[{\"type\":\"some_future_type\"}]}]}";

    assertThat(BootstrapParser.parse(json, "test").server().channelCredentials())
        .isEqualTo(ChannelCredentialsSpec.insecure());
  }
}
