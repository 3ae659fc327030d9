package io.jxds.toolkit.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.jxds.toolkit.internal.KnownTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fast reader gives JsonFormat's proto for every resource it reads, and leaves the rest to it. */
class FastProtoReaderTest {
  @ParameterizedTest
  @ValueSource(strings = {"before.json", "after.json", "routes.json"})
  void givesJsonFormatsProtosOnTheExamples(String example) throws Exception {
    String text = Files.readString(Path.of(getClass().getResource("/examples/" + example).toURI()));

    assertThat(compareAll(text)).as("resources the fast reader read").isGreaterThan(1);
  }

  @Test
  void givesJsonFormatsProtosOnGeneratedInput() throws Exception {
    assertThat(compareAll(generated(30, 12, 0))).isEqualTo(60);
    assertThat(compareAll(generated(30, 12, 5))).isEqualTo(60);
  }

  @Test
  void writesEveryScalarShapeAsProtobufDoes() throws Exception {
    String cluster = "{\"@type\": \"type.googleapis.com/envoy.config.cluster.v3.Cluster\", \"name\": \"c\","
        + " \"type\": 3, \"lb_policy\": \"LEAST_REQUEST\", \"least_request_lb_config\": {\"choice_count\": 3,"
        + " \"active_request_bias\": {\"default_value\": 1.25, \"runtime_key\": \"k\"}},"
        + " \"connect_timeout\": \"0s\", \"dns_refresh_rate\": \"12.000500s\", \"respect_dns_ttl\": false,"
        + " \"ignore_health_on_host_removal\": true, \"per_connection_buffer_limit_bytes\": 0,"
        + " \"eds_cluster_config\": {\"service_name\": \"\", \"eds_config\": {\"ads\": {}}},"
        + " \"circuit_breakers\": {\"thresholds\": [{\"priority\": \"HIGH\", \"max_requests\": \"4294967295\"}, {}]},"
        + " \"outlier_detection\": {\"interval\": \"1.5s\", \"success_rate_stdev_factor\": 1900}}";
    String route = "{\"@type\": \"type.googleapis.com/envoy.config.route.v3.RouteConfiguration\","
        + " \"name\": \"r\", \"virtual_hosts\": [{\"name\": \"v\", \"domains\": [\"*\", \"a.b\"], \"routes\": [{"
        + " \"match\": {\"prefix\": \"/\", \"headers\": [{\"name\": \"x\", \"range_match\": {\"start\": \"-5\","
        + " \"end\": -1}}, {\"name\": \"y\", \"present_match\": false}]},"
        + " \"route\": {\"cluster\": \"c\", \"timeout\": \"0.250s\", \"retry_policy\": {\"retry_on\": \"cancelled\","
        + " \"num_retries\": 2, \"retriable_status_codes\": [503, 0, 4294967295]},"
        + " \"hash_policy\": [{\"header\": {\"header_name\": \"h\"}, \"terminal\": true}]}}]}]}";
    assertThat(compareAll("[" + cluster + ", " + route + "]")).isEqualTo(2);
  }

  /**
   * The reader walks the text left to right: the same resources with every object's members in a
   * random order (an Any's {@code "@type"} anywhere among them, fields out of number order) and
   * random spacing must still give JsonFormat's bytes, and the same ones as before the shuffle.
   */
  @ParameterizedTest
  @ValueSource(strings = {"before.json", "after.json", "routes.json"})
  void givesJsonFormatsProtosWhateverTheMemberOrderAndSpacing(String example) throws Exception {
    String text = Files.readString(Path.of(getClass().getResource("/examples/" + example).toURI()));
    int read = compareAll(text);
    SplittableRandom random = new SplittableRandom(example.hashCode());
    for (int i = 0; i < 20; i++) {
      StringBuilder shuffled = new StringBuilder();
      rewrite(JsonText.parseWhole(JsonText.parse(text)), random, shuffled);
      assertThat(compareAll(shuffled.toString())).as("shuffle %d of %s", i, example).isEqualTo(read);
    }
  }

  @Test
  void decodesEscapesAndTextBeyondAscii() throws Exception {
    String cluster = "{\"name\": \"caf\u00e9-\\u00e9\\\"q\\\"\\n\","
        + " \"eds_cluster_config\": {\"service_name\": \"\\/x\"},"
        + " \"alt_stat_name\": \"\ud83d\ude00\", \"@type\": \"type.googleapis.com/envoy.config.cluster.v3.Cluster\"}";
    assertThat(compareAll(cluster)).isEqualTo(1);
  }

  @Test
  void leavesShapesItDoesNotReadToJsonFormat() throws Exception {
    for (String odd : List.of("\"metadata\": {\"filter_metadata\": {\"a\": {}}}", "\"name\": null",
        "\"per_connection_buffer_limit_bytes\": 1e3", "\"nonsense\": 1", "\"connect_timeout\": \"-1s\"")) {
      String text = "{\"@type\": \"type.googleapis.com/envoy.config.cluster.v3.Cluster\", " + odd + "}";
      JsonNode node = JsonText.parse(text);
      assertThatThrownBy(() -> new FastProtoReader(node.document()).readAny(node)).as(odd)
          .isInstanceOf(FastProtoReader.Unsupported.class);
    }
  }

  /**
   * Reads every resource of the document both ways and asserts equal protos; returns how many the
   * fast reader read (the others it left to JsonFormat).
   */
  private static int compareAll(String text) throws Exception {
    List<JsonNode> types = new ArrayList<>();
    JsonNode root = JsonText.parse(text, types);
    List<Descriptor> descriptors = new ArrayList<>();
    for (JsonNode t : types) {
      MessageTypes.find(t.string()).ifPresent(descriptors::add);
    }
    JsonFormat.Parser parser = JsonFormat.parser()
        .usingTypeRegistry(JsonFormat.TypeRegistry.newBuilder().add(descriptors).build());
    List<JsonNode> resources = new ArrayList<>();
    collect(root, resources);
    int read = 0;
    for (JsonNode n : resources) {
      Any.Builder slow = Any.newBuilder();
      parser.merge(n.text(), slow);
      Message fast;
      try {
        fast = new FastProtoReader(n.document()).readAny(n);
      } catch (FastProtoReader.Unsupported e) {
        continue;
      }
      read++;
      Any fastAny = Any.newBuilder().setTypeUrl(n.stringMember("@type")).setValue(fast.toByteString()).build();
      assertThat(fastAny.getTypeUrl()).isEqualTo(slow.getTypeUrl());
      assertThat(fast).isEqualTo(fast.getParserForType().parseFrom(slow.getValue()));
      assertThat(fastAny.getValue()).isEqualTo(slow.getValue());
      assertThat(new FastProtoReader(n.document()).readAnyBytes(n)).as("the wire bytes as protobuf writes them")
          .isEqualTo(slow.getValue());
    }
    return read;
  }

  /** {@code n} written again, each object's members shuffled, with random spaces and line breaks between tokens. */
  private static void rewrite(JsonNode n, SplittableRandom random, StringBuilder out) {
    if (n.isObject()) {
      List<Map.Entry<String, JsonNode>> members = new ArrayList<>(n.members().entrySet());
      Collections.shuffle(members, new Random(random.nextLong()));
      out.append('{').append(space(random));
      for (int i = 0; i < members.size(); i++) {
        out.append(i == 0 ? "" : "," + space(random)).append(new Gson().toJson(members.get(i).getKey()))
            .append(space(random)).append(':').append(space(random));
        rewrite(members.get(i).getValue(), random, out);
      }
      out.append(space(random)).append('}');
    } else if (n.isArray()) {
      out.append('[').append(space(random));
      for (int i = 0; i < n.elements().size(); i++) {
        out.append(i == 0 ? "" : "," + space(random));
        rewrite(n.elements().get(i), random, out);
      }
      out.append(space(random)).append(']');
    } else {
      out.append(n.text());
    }
  }

  private static String space(SplittableRandom random) {
    return List.of("", " ", "\n  ", "\t", "\r\n").get(random.nextInt(5));
  }

  private static void collect(JsonNode n, List<JsonNode> resources) {
    if (n.isObject()) {
      String type = n.stringMember("@type");
      if (type != null && KnownTypes.isKnown(type)) {
        resources.add(n);
        return;
      }
      n.members().values().forEach(m -> collect(m, resources));
    } else if (n.isArray()) {
      n.elements().forEach(e -> collect(e, resources));
    }
  }

  /** What examples/generate-snapshot.py writes: clusters × endpoints, weights and health varied by shift. */
  static String generated(int clusters, int endpoints, int shift) {
    StringBuilder cds = new StringBuilder();
    StringBuilder eds = new StringBuilder();
    for (int c = 0; c < clusters; c++) {
      String name = "svc-" + c;
      cds.append(c == 0 ? "" : ",").append("{\"@type\": \"").append(KnownTypes.type(
          io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL).typeUrl()).append("\", \"name\": \"").append(name)
          .append("\", \"type\": \"EDS\", \"eds_cluster_config\": {\"eds_config\": {\"ads\": {}}},"
              + " \"connect_timeout\": \"0.250s\", \"circuit_breakers\": {\"thresholds\": [{\"max_requests\": 7}]}}");
      eds.append(c == 0 ? "" : ",").append("{\"@type\": \"").append(io.jxds.api.ResourceTypes.ENDPOINTS_TYPE_URL)
          .append("\", \"clusterName\": \"").append(name).append("\", \"endpoints\": [");
      for (int l = 0; l < 4; l++) {
        eds.append(l == 0 ? "" : ",").append("{\"locality\": {\"region\": \"r\", \"zone\": \"z").append(l)
            .append("\"}, \"load_balancing_weight\": ").append(1 + (l + shift) % 3).append(", \"priority\": ")
            .append(l < 3 ? 0 : 1).append(", \"lb_endpoints\": [");
        for (int e = 0; e < endpoints / 4; e++) {
          int i = l * (endpoints / 4) + e;
          eds.append(e == 0 ? "" : ",").append("{\"endpoint\": {\"address\": {\"socket_address\": {\"address\": \"10.")
              .append(c / 250).append('.').append(c % 250).append('.').append(i)
              .append("\", \"port_value\": 8080}}}, \"load_balancing_weight\": ").append(1 + (i + shift) % 7)
              .append(", \"health_status\": \"").append((i + shift) % 13 == 0 ? "UNHEALTHY" : "HEALTHY").append("\"}");
        }
        eds.append("]}");
      }
      eds.append("]}");
    }
    return "[{\"type_url\": \"" + io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL + "\", \"resources\": [" + cds
        + "]}, {\"type_url\": \"" + io.jxds.api.ResourceTypes.ENDPOINTS_TYPE_URL + "\", \"resources\": [" + eds
        + "]}]";
  }
}
