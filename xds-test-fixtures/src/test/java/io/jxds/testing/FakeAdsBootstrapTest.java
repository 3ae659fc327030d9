package io.jxds.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bootstrap JSON parses and has the gRPC bootstrap fields. */
class FakeAdsBootstrapTest {
  private final FakeAdsServer server = FakeAdsServer.loopback().start();

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void defaultBootstrapPointsAtTheServerInsecurely() {
    JsonObject json = JsonParser.parseString(server.bootstrap().build()).getAsJsonObject();

    JsonObject xdsServer = json.getAsJsonArray("xds_servers").get(0).getAsJsonObject();
    assertThat(xdsServer.get("server_uri").getAsString())
        .isEqualTo("127.0.0.1:" + server.port());
    assertThat(xdsServer.getAsJsonArray("channel_creds").get(0).getAsJsonObject()
            .get("type").getAsString())
        .isEqualTo("insecure");
    assertThat(xdsServer.getAsJsonArray("server_features")).isEmpty();
    assertThat(json.getAsJsonObject("node").get("id").getAsString())
        .isEqualTo(FakeAdsBootstrap.DEFAULT_NODE_ID);
    assertThat(json.has("jxds")).isFalse();
  }

  @Test
  void optionsAppearInTheirFields() {
    String text =
        server
            .bootstrap()
            .nodeId("node \"7\"")
            .nodeCluster("c")
            .nodeLocality("r", "z", "s")
            .serverFeatures("ignore_resource_deletion")
            .jxdsOption("resource_timeout", "2s")
            .build();

    JsonObject json = JsonParser.parseString(text).getAsJsonObject();
    JsonObject node = json.getAsJsonObject("node");
    assertThat(node.get("id").getAsString()).isEqualTo("node \"7\"");
    assertThat(node.get("cluster").getAsString()).isEqualTo("c");
    assertThat(node.getAsJsonObject("locality").get("sub_zone").getAsString()).isEqualTo("s");
    assertThat(json.getAsJsonArray("xds_servers").get(0).getAsJsonObject()
            .getAsJsonArray("server_features").get(0).getAsString())
        .isEqualTo("ignore_resource_deletion");
    assertThat(json.getAsJsonObject("jxds").get("resource_timeout").getAsString())
        .isEqualTo("2s");
  }

  @Test
  void inProcessServerUriNamesTheServer() {
    FakeAdsServer inProcess = FakeAdsServer.inProcess("my-ads");
    JsonObject json = JsonParser.parseString(inProcess.bootstrap().build()).getAsJsonObject();
    assertThat(json.getAsJsonArray("xds_servers").get(0).getAsJsonObject()
            .get("server_uri").getAsString())
        .isEqualTo("inprocess:my-ads");
  }
}
