package io.jxds.client.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapLoaderTest {
  @TempDir Path dir;

  private final Map<String, String> properties = new HashMap<>();
  private final Map<String, String> env = new HashMap<>();
  private final BootstrapLoader loader = new BootstrapLoader(properties::get, env::get);

  private static String json(String uri, String nodeId) {
    return "{\"xds_servers\":[{\"server_uri\":\"" + uri + "\",\"channel_creds\":[{\"type\":\"insecure\"}]}],"
        + "\"node\":{\"id\":\"" + nodeId + "\"}}";
  }

  private Path file(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content);
    return p;
  }

  @Test
  void sourcesAreTriedInOrder() throws Exception {
    env.put("GRPC_XDS_BOOTSTRAP_CONFIG", json("env-config:1", "n4"));
    assertThat(loader.load().node().getId()).isEqualTo("n4");
    env.put("GRPC_XDS_BOOTSTRAP", file("env.json", json("env-file:1", "n3")).toString());
    assertThat(loader.load().node().getId()).isEqualTo("n3");
    properties.put("jxds.bootstrapConfig", json("prop-config:1", "n2"));
    assertThat(loader.load().node().getId()).isEqualTo("n2");
    properties.put("jxds.bootstrap", file("prop.json", json("prop-file:1", "n1")).toString());
    assertThat(loader.load().node().getId()).isEqualTo("n1");
    assertThat(loader.load().server().serverUri()).isEqualTo("prop-file:1");
  }

  @Test
  void fileIsReadAgainOnEveryLoad() throws Exception {
    Path p = file("b.json", json("a:1", "first"));
    env.put("GRPC_XDS_BOOTSTRAP", p.toString());
    assertThat(loader.load().node().getId()).isEqualTo("first");
    Files.writeString(p, json("a:1", "second"));
    assertThat(loader.load().node().getId()).isEqualTo("second");
  }

  @Test
  void noSourceNamesAllFour() {
    assertThatThrownBy(loader::load)
        .isInstanceOf(BootstrapException.class)
        .hasMessageContaining("jxds.bootstrap")
        .hasMessageContaining("jxds.bootstrapConfig")
        .hasMessageContaining("GRPC_XDS_BOOTSTRAP")
        .hasMessageContaining("GRPC_XDS_BOOTSTRAP_CONFIG")
        .satisfies(e -> assertThat(((BootstrapException) e).isMissing()).as("missing").isTrue());
  }

  @Test
  void aBootstrapThatIsFoundButBadIsNotMissing() throws Exception {
    properties.put("jxds.bootstrapConfig", "{\"xds_servers\": []}");
    assertThatThrownBy(loader::load)
        .isInstanceOf(BootstrapException.class)
        .satisfies(e -> assertThat(((BootstrapException) e).isMissing()).as("missing").isFalse());
    properties.clear();
    env.put("GRPC_XDS_BOOTSTRAP", dir.resolve("nope.json").toString());
    assertThatThrownBy(loader::load)
        .satisfies(e -> assertThat(((BootstrapException) e).isMissing()).as("missing").isFalse());
  }

  @Test
  void missingFileNamesTheSourceAndPath() {
    env.put("GRPC_XDS_BOOTSTRAP", dir.resolve("nope.json").toString());
    assertThatThrownBy(loader::load)
        .isInstanceOf(BootstrapException.class)
        .hasMessageContaining("env GRPC_XDS_BOOTSTRAP=")
        .hasMessageContaining("nope.json")
        .hasMessageContaining("cannot read file");
  }

  @Test
  void badJsonNamesTheSource() {
    properties.put("jxds.bootstrapConfig", "{not json");
    assertThatThrownBy(loader::load)
        .isInstanceOf(BootstrapException.class)
        .hasMessageStartingWith("system property jxds.bootstrapConfig: bad JSON");
  }

  @Test
  void errorsInAFileNameTheFileAndTheField() throws Exception {
    properties.put("jxds.bootstrap", file("b.json", "{\"xds_servers\":[]}").toString());
    assertThatThrownBy(loader::load)
        .isInstanceOf(BootstrapException.class)
        .hasMessageContaining("system property jxds.bootstrap=")
        .hasMessageContaining("xds_servers is required");
  }

  @Test
  void jxdsKnobsHaveDefaults() throws Exception {
    env.put("GRPC_XDS_BOOTSTRAP_CONFIG", json("a:1", "n"));
    Bootstrap b = loader.load();
    assertThat(b.resourceTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(b.clientRetention()).isEqualTo(Duration.ofMinutes(5));
  }
}
