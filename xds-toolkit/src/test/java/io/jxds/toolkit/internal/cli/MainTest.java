package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.toolkit.internal.read.JsonNode;
import io.jxds.toolkit.internal.read.JsonText;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ./jxds's exit codes and outputs, on the example files docs/toolkit.md shows. */
class MainTest {
  @TempDir Path dir;

  private static MainRun run(String... args) {
    return MainRun.of(args);
  }

  private static String example(String name) throws URISyntaxException {
    return Path.of(MainTest.class.getResource("/examples/" + name).toURI()).toString();
  }

  @Test
  void checkOfAcceptedResourcesExitsZeroWithTables() throws Exception {
    MainRun r = run("check", example("before.json"));

    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("resources: 2, 2 accepted, 0 NACKed")
        .contains("cluster payments: SERVING, round_robin, priority 0 serves (next: 1)")
        .containsPattern("10\\.0\\.0\\.4:8080 +HEALTHY +2 +50\\.000% \\(1/2\\)")
        .contains("ignored by gRPC: CDS \"payments\" health_checks");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void checkExitsOneWhenAClientWouldNack() throws Exception {
    MainRun r = run("check", example("after.json"));

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("NACK EDS \"orders\": ClusterLoadAssignment \"orders\": endpoints[].priority must be"
        + " contiguous from 0");
  }

  @Test
  void jsonIsTheDocumentedSchema() throws Exception {
    MainRun r = run("check", "--json", example("before.json"));

    JsonNode root = JsonText.parse(r.out());
    assertThat(root.stringMember("schema")).isEqualTo("jxds.check/v1");
    JsonNode cluster = root.member("clusters").elements().get(0);
    assertThat(cluster.stringMember("state")).isEqualTo("SERVING");
    JsonNode endpoint = cluster.member("priorities").elements().get(0).member("localities").elements().get(0)
        .member("endpoints").elements().get(1);
    assertThat(endpoint.stringMember("address")).isEqualTo("10.0.0.4:8080");
    assertThat(endpoint.member("share").text()).isEqualTo("0.5");
    assertThat(endpoint.stringMember("shareExact")).isEqualTo("1/2");
    assertThat(cluster.member("dropped").text()).isEqualTo("0.05");
  }

  @Test
  void diffShowsMovedSharesAndNacksAndExitsOne() throws Exception {
    MainRun r = run("diff", example("before.json"), example("after.json"));

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).containsPattern("payments +ENDPOINT_SHARE +10\\.0\\.1\\.6:8080 +0 +1/4 +\\+25\\.000 points")
        .contains("NACK EDS \"orders\": ClusterLoadAssignment \"orders\"");
    MainRun json = run("diff", "--json", example("before.json"), example("after.json"));
    assertThat(JsonText.parse(json.out()).stringMember("schema")).isEqualTo("jxds.diff/v1");
  }

  @Test
  void checkPrintsEveryListenersRouteTable() throws Exception {
    MainRun r = run("check", example("routes.json"));

    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("listener payments.example.com: ROUTING, routes from payments-routes")
        .contains("virtual host payments: domains payments.example.com, payments.example.com:443")
        .containsPattern("1 +charge-split +prefix \"/payments.Payments/Charge\" +payments 90 \\(90\\.000%\\),"
            + " payments-v2 10 \\(10\\.000%\\)");
    JsonNode listener = JsonText.parse(run("check", "--json", example("routes.json")).out()).member("listeners")
        .elements().get(0);
    assertThat(listener.member("virtualHosts").elements().get(0).member("routes").elements())
        .extracting(n -> n.stringMember("name")).containsExactly("canary-by-header", "charge-split", "default");
  }

  @Test
  void routeShowsTheRouteAndClustersOfARequest() throws Exception {
    MainRun split = run("route", example("routes.json"), "--authority", "payments.example.com", "--path",
        "/payments.Payments/Charge");
    assertThat(split.code()).isZero();
    assertThat(split.out()).contains("request payments.example.com /payments.Payments/Charge: listener"
        + " payments.example.com, virtual host payments")
        .containsPattern("90\\.000% \\(9/10\\) +charge-split +payments +90 +SERVING")
        .containsPattern("10\\.000% \\(1/10\\) +charge-split +payments-v2 +10 +SERVING");

    MainRun header = run("route", example("routes.json"), "--authority", "payments.example.com:443", "--path",
        "/payments.Payments/Charge", "--header", "x-canary=yes", "--listener", "payments.example.com", "--json");
    JsonNode root = JsonText.parse(header.out());
    assertThat(root.stringMember("schema")).isEqualTo("jxds.route/v1");
    assertThat(root.member("clusters").elements()).singleElement()
        .satisfies(c -> assertThat(c.stringMember("name")).isEqualTo("payments-v2"))
        .satisfies(c -> assertThat(c.member("share").text()).isEqualTo("1"));
  }

  @Test
  void routeExitsFourWhenTheRequestFailsAndTwoOnABadPath() throws Exception {
    MainRun none = run("route", example("routes.json"), "--authority", "elsewhere.example.com", "--path", "/a.A/M");
    assertThat(none.code()).isEqualTo(4);
    assertThat(none.out()).contains("fails: listener payments.example.com: route configuration payments-routes has no"
        + " virtual host whose domains match authority elsewhere.example.com");

    MainRun bad = run("route", example("routes.json"), "--authority", "payments.example.com", "--path", "a.A/M");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("jxds: path must be /service/method");
  }

  @Test
  void badInputExitsTwoWithOneLineNamingTheFileAndLine() throws Exception {
    Path f = dir.resolve("x.json");
    Files.writeString(f,
        "{\n  \"resources\": [\n    {\"name\": 1}\n  ],\n  \"type_url\": \"type.googleapis.com/x.Y\"\n}");

    MainRun r = run("check", f.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("jxds: " + f + ":5 type_url: unknown type type.googleapis.com/x.Y: the toolkit"
        + " reads Cluster, ClusterLoadAssignment, Listener, RouteConfiguration" + System.lineSeparator());
    assertThat(r.out()).isEmpty();
  }

  @Test
  void missingFileAndBadArgumentsExitTwo() {
    assertThat(run("check", dir.resolve("none.json").toString()).err()).contains("cannot read: no such file");
    assertThat(run("check").code()).isEqualTo(2);
    assertThat(run("frobnicate").code()).isEqualTo(2);
    assertThat(run().code()).isEqualTo(2);
  }
}
