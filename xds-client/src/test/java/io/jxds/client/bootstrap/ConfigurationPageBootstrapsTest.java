package io.jxds.client.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bootstraps docs/configuration.md and README.md show for federation (gRFC A47) and Traffic
 * Director, read as a user's process reads them: what the page says each field does is what the
 * loader makes of it. The files are the pages' blocks verbatim (the doc-snippet test checks that).
 */
class ConfigurationPageBootstrapsTest {
  private static final Path PAGE = Path.of("src/test/resources/doc-snippets/docs/configuration");
  private static final Path README = Path.of("src/test/resources/doc-snippets/README");

  @Test
  void federationBootstrapGivesOneAuthorityTheTopLevelServerAndTheOtherItsOwnDeltaServer() throws Exception {
    Bootstrap b = load("federation-bootstrap.json");

    assertThat(b.server().serverUri()).isEqualTo("cp-a.example:18000");
    assertThat(b.authorities()).containsOnlyKeys("a.example", "b.example");
    assertThat(b.authorities().get("a.example").servers()).as("a.example: the top-level servers").isEmpty();
    ServerInfo own = b.authorities().get("b.example").servers().get(0);
    assertThat(own.serverUri()).isEqualTo("cp-b.example:18000");
    assertThat(own.serverFeatures()).containsExactly(ServerInfo.DELTA);
  }

  @Test
  void trafficDirectorBootstrapNamesListenersInItsAuthorityWithGoogleDefaultCredentials() throws Exception {
    Bootstrap b = load("traffic-director-bootstrap.json");

    String template =
        "xdstp://traffic-director-global.xds.googleapis.com/envoy.config.listener.v3.Listener/123456789/default/%s";
    assertThat(b.server().channelCredentials()).isEqualTo(ChannelCredentialsSpec.googleDefault());
    assertThat(b.server().serverFeatures()).contains(ServerInfo.IGNORE_RESOURCE_DELETION);
    assertThat(b.clientDefaultListenerResourceNameTemplate()).isEqualTo(template);
    assertThat(b.authorities().get("traffic-director-global.xds.googleapis.com").clientListenerResourceNameTemplate())
        .contains(template);
  }

  @Test
  void readmeBootstrapGivesBExampleItsOwnServerThenTheTopLevelOneAsFallback() throws Exception {
    Bootstrap b = load(README.resolve("federation-bootstrap.json"));

    assertThat(b.server().serverUri()).isEqualTo("cp-a.example:18000");
    assertThat(b.authorities()).containsOnlyKeys("b.example");
    assertThat(b.authorities().get("b.example").servers()).extracting(ServerInfo::serverUri)
        .containsExactly("cp-b.example:18000", "cp-a.example:18000");
    assertThat(b.authorities().get("b.example").servers().get(1))
        .as("b.example's fallback is the top-level server itself: one stream serves both")
        .isEqualTo(b.server());
  }

  private static Bootstrap load(String file) throws IOException, BootstrapException {
    return load(PAGE.resolve(file));
  }

  private static Bootstrap load(Path path) throws IOException, BootstrapException {
    String json = Files.readString(path);
    return new BootstrapLoader(Map.of(BootstrapLoader.PROPERTY_CONFIG, json)::get, name -> null).load();
  }
}
