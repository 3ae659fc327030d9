package io.jxds.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.api.ResourceTypes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every input form the toolkit reads, and every kind of bad input, named by file and line. */
class SnapshotReadingTest {
  @TempDir Path dir;

  private static final String CLUSTER = """
      {
        "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
        "name": "payments",
        "type": "EDS",
        "edsClusterConfig": {"edsConfig": {"ads": {}}, "serviceName": "payments-eds"}
      }""";

  private static final String ASSIGNMENT = """
      {
        "@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
        "cluster_name": "payments-eds",
        "endpoints": [{
          "locality": {"region": "us", "zone": "us-a"},
          "load_balancing_weight": 3,
          "lb_endpoints": [{"endpoint": {"address": {"socket_address": {"address": "10.0.0.1", "port_value": 8080}}}}]
        }]
      }""";

  @Test
  void readsSingleResourcesWithTheirLine() throws Exception {
    Snapshot s = Snapshot.read(write("c.json", CLUSTER), write("e.json", ASSIGNMENT));

    assertThat(s.resources()).extracting(XdsResource::typeUrl)
        .containsExactly(ResourceTypes.CLUSTER_TYPE_URL, ResourceTypes.ENDPOINTS_TYPE_URL);
    assertThat(s.resources().get(0).source()).isEqualTo(dir.resolve("c.json") + ":1");
    assertThat(s.check().anyNacked()).isFalse();
  }

  @Test
  void readsADiscoveryResponseAsItsTypeUrlSays() throws Exception {
    String json = "{\"version_info\": \"7\", \"type_url\": \"" + ResourceTypes.CLUSTER_TYPE_URL + "\",\n"
        + " \"resources\": [\n" + CLUSTER + ",\n" + ASSIGNMENT + "]}";
    Snapshot s = Snapshot.parse(json, "r.json");

    assertThat(s.resources()).extracting(XdsResource::index).containsExactly(0, 1);
    // The assignment sits in a CDS response: the client NACKs it by index, naming the type URL.
    CheckReport check = s.check();
    assertThat(check.resources().get(0).accepted()).isTrue();
    assertThat(check.resources().get(1).nack()).hasValue("CDS resource index 1: CDS response: type_url must be "
        + ResourceTypes.CLUSTER_TYPE_URL + ", got \"" + ResourceTypes.ENDPOINTS_TYPE_URL + "\"");
    assertThat(check.resources().get(1).source()).isEqualTo("r.json:9 resources[1]");
  }

  @Test
  void readsAnEnvoyConfigDumpAndSkipsWhatGrpcDoesNotRead() throws Exception {
    String json = """
        {"configs": [
          {"@type": "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump", "bootstrap": {}},
          {"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump",
           "version_info": "3",
           "dynamic_active_clusters": [{"version_info": "3", "cluster": %s}]},
          {"@type": "type.googleapis.com/envoy.admin.v3.EndpointsConfigDump",
           "dynamic_endpoint_configs": [{"endpoint_config": %s}]}
        ]}""".formatted(CLUSTER, ASSIGNMENT);
    Snapshot s = Snapshot.parse(json, "dump.json");

    assertThat(s.resources()).hasSize(2);
    assertThat(s.notes()).singleElement().asString().contains("skipped BootstrapConfigDump");
    assertThat(s.plan().cluster("payments")).get().extracting(ClusterPlan::state).isEqualTo(ClusterPlan.State.SERVING);
  }

  @Test
  void readsACsdsClientStatusResponse() throws Exception {
    String json = """
        {"config": [{"node": {"id": "n1"}, "genericXdsConfigs": [
          {"typeUrl": "%s", "name": "payments", "versionInfo": "1", "xdsConfig": %s, "clientStatus": "ACKED"},
          {"typeUrl": "%s", "name": "payments-eds", "clientStatus": "REQUESTED"}
        ]}]}""".formatted(ResourceTypes.CLUSTER_TYPE_URL, CLUSTER, ResourceTypes.ENDPOINTS_TYPE_URL);
    Snapshot s = Snapshot.parse(json, "csds.json");

    assertThat(s.resources()).singleElement().extracting(XdsResource::typeUrl)
        .isEqualTo(ResourceTypes.CLUSTER_TYPE_URL);
    assertThat(s.notes()).singleElement().asString().contains("EDS \"payments-eds\" has no value (REQUESTED)");
    assertThat(s.plan().cluster("payments").orElseThrow().state()).isEqualTo(ClusterPlan.State.ENDPOINTS_MISSING);
  }

  @Test
  void unknownJsonFieldIsANoteAndIgnoredAsAClientIgnoresIt() throws Exception {
    Snapshot s = Snapshot.parse(CLUSTER.replace("\"name\"", "\"futureField\": 1, \"name\""), "f.json");

    assertThat(s.resources()).hasSize(1);
    assertThat(s.notes()).singleElement().asString().startsWith("f.json:1: Cannot find field: futureField");
  }

  @Test
  void unreadableFileIsNamed() {
    Path missing = dir.resolve("missing.json");
    assertThatThrownBy(() -> Snapshot.read(missing))
        .isInstanceOf(BadInputException.class)
        .hasMessage(missing + ": cannot read: no such file");
  }

  @Test
  void malformedJsonNamesLineAndColumn() {
    assertThatThrownBy(() -> Snapshot.parse("{\n  \"a\": 1,\n  \"b\" 2\n}", "bad.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("bad.json:3: not JSON: line 3, column 7: expected ':', got '2'");
  }

  @Test
  void binaryFileIsNotXdsJson() throws Exception {
    Path f = dir.resolve("x.pb");
    Files.write(f, new byte[] {(byte) 0xC3, (byte) 0x28, 0x0A});
    assertThatThrownBy(() -> Snapshot.read(f)).hasMessageContaining(f + ": not xDS JSON: not UTF-8 text");
  }

  @Test
  void utf8TextIsReadAsWrittenReplacementCharacterIncluded() throws Exception {
    Path f = dir.resolve("names.json");
    String cluster = "{\"@type\": \"type.googleapis.com/envoy.config.cluster.v3.Cluster\", \"name\": \"%s\","
        + " \"type\": \"EDS\", \"eds_cluster_config\": {\"eds_config\": {\"ads\": {}}}}";
    Files.writeString(f, "[" + String.format(cluster, "caf\u00e9-\uFFFD-\u20ac") + "]", StandardCharsets.UTF_8);
    assertThat(Snapshot.read(f).check().resources()).extracting(ResourceVerdict::name)
        .containsExactly("caf\u00e9-\uFFFD-\u20ac");
    Path bad = dir.resolve("latin1.json");
    Files.write(bad, String.format(cluster, "caf\u00e9").getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> Snapshot.read(bad)).hasMessageContaining(bad + ": not xDS JSON: not UTF-8 text");
  }

  @Test
  void jsonThatIsNotXdsSaysWhatWasExpected() {
    assertThatThrownBy(() -> Snapshot.parse("\n{\"hello\": \"world\"}", "hello.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("hello.json:2: not xDS JSON: expected a resource with \"@type\"");
  }

  @Test
  void unknownResourceTypeIsBadInput() {
    String json = "{\"@type\": \"type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret\","
        + " \"name\": \"s\"}";
    assertThatThrownBy(() -> Snapshot.parse(json, "s.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("s.json:1: unknown type type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret:"
            + " the toolkit reads Cluster, ClusterLoadAssignment, Listener, RouteConfiguration");
  }

  @Test
  void unknownDiscoveryResponseTypeIsBadInput() {
    String json = "{\"type_url\": \"type.googleapis.com/foo.Bar\",\n\"resources\": []}";
    assertThatThrownBy(() -> Snapshot.parse(json, "r.json"))
        .hasMessageStartingWith("r.json:1 type_url: unknown type type.googleapis.com/foo.Bar");
  }

  @Test
  void mismatchedTypeUrlInAConfigDumpSectionIsBadInput() {
    String json = """
        {"configs": [{"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump",
          "dynamic_active_clusters": [
            {"cluster": %s}]}]}""".formatted(ASSIGNMENT);
    assertThatThrownBy(() -> Snapshot.parse(json, "d.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("d.json:3 configs[0].dynamic_active_clusters[0].cluster: type URL must be "
            + ResourceTypes.CLUSTER_TYPE_URL + " here, got " + ResourceTypes.ENDPOINTS_TYPE_URL);
  }

  @Test
  void extensionTypeOutsideTheEnvoyApiIsBadInputNamingItsLine() {
    String json = CLUSTER.replace("\"type\": \"EDS\",", "\"type\": \"EDS\",\n  \"transportSocket\": {\"name\": \"x\","
        + " \"typedConfig\": {\"@type\": \"type.googleapis.com/acme.Custom\"}},");
    assertThatThrownBy(() -> Snapshot.parse(json, "c.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("c.json:5: unknown \"@type\" type.googleapis.com/acme.Custom: no such message");
  }

  @Test
  void wrongValueTypeIsBadInputNamingTheResource() {
    String json = CLUSTER.replace("\"EDS\"", "42.5");
    assertThatThrownBy(() -> Snapshot.parse(json, "c.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("c.json:1: cannot read envoy.config.cluster.v3.Cluster: ");
  }

  private Path write(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text, StandardCharsets.UTF_8);
    return f;
  }
}
