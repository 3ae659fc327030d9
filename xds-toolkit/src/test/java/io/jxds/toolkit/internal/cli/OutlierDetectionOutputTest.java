package io.jxds.toolkit.internal.cli;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.jxds.testing.XdsResources;
import io.jxds.toolkit.internal.read.JsonNode;
import io.jxds.toolkit.internal.read.JsonText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./jxds check} shows each cluster's outlier detection, in the tables and the JSON. */
class OutlierDetectionOutputTest {
  @TempDir Path dir;

  private Path file() throws Exception {
    Message ejecting = XdsResources.cluster("ejecting")
        .failurePercentageEjection(Duration.ofSeconds(1), Duration.ofMillis(1500), 40, 3, 20, 50).build();
    Message plain = XdsResources.cluster("plain").build();
    Message ejectingEds = XdsResources.endpoints("ejecting").locality("us", "a", "", l -> l.endpoint("10.0.0.1", 80,
        HEALTHY)).build();
    Message plainEds = XdsResources.endpoints("plain").locality("us", "a", "", l -> l.endpoint("10.0.0.2", 80,
        HEALTHY)).build();
    StringBuilder json = new StringBuilder("[");
    for (Message m : new Message[] {ejecting, plain, ejectingEds, plainEds}) {
      json.append(json.length() == 1 ? "" : ",").append(JsonFormat.printer().usingTypeRegistry(
          JsonFormat.TypeRegistry.newBuilder().add(m.getDescriptorForType()).build()).print(Any.pack(m)));
    }
    return Files.writeString(dir.resolve("od.json"), json.append(']').toString());
  }

  private static String run(String... args) {
    return MainRun.of(args).out();
  }

  @Test
  void tablesShowTheEffectiveSettingsOrOff() throws Exception {
    String out = run("check", file().toString());

    assertThat(out).contains("cluster ejecting: SERVING")
        .contains("  outlier detection: failure percentage (threshold 40%, enforcing 100%, minimum hosts 3, request"
            + " volume 20); every 1s, ejection 1.5s (at most 300s), at most 50% of endpoints ejected\n")
        .contains("cluster plain: SERVING")
        .contains("  outlier detection: off\n");
  }

  @Test
  void jsonHasTheSettingsOrNull() throws Exception {
    String out = run("check", "--json", file().toString());

    JsonNode clusters = JsonText.parse(out).member("clusters");
    JsonNode od = clusters.elements().get(0).member("outlierDetection");
    assertThat(od.stringMember("interval")).isEqualTo("1s");
    assertThat(od.stringMember("baseEjectionTime")).isEqualTo("1.5s");
    assertThat(od.stringMember("maxEjectionTime")).isEqualTo("300s");
    assertThat(od.member("maxEjectionPercent").text()).isEqualTo("50");
    assertThat(od.member("successRate").text()).isEqualTo("null");
    JsonNode fp = od.member("failurePercentage");
    assertThat(fp.member("threshold").text()).isEqualTo("40");
    assertThat(fp.member("enforcementPercentage").text()).isEqualTo("100");
    assertThat(fp.member("minimumHosts").text()).isEqualTo("3");
    assertThat(fp.member("requestVolume").text()).isEqualTo("20");
    assertThat(clusters.elements().get(1).member("outlierDetection").text()).isEqualTo("null");
  }
}
