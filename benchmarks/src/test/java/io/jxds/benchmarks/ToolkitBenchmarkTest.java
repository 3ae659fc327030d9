package io.jxds.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.toolkit.ClusterPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ToolkitBenchmarkTest {
  @Test
  void generatesWhatTheDocumentedScriptGenerates() throws Exception {
    Path golden = Path.of("../xds-toolkit/src/test/resources/golden");
    assertThat(ToolkitBenchmark.snapshotJson(3, 8, 0)).isEqualTo(Files.readString(golden.resolve("generated.json")));
    assertThat(ToolkitBenchmark.snapshotJson(3, 8, 1))
        .isEqualTo(Files.readString(golden.resolve("generated-shifted.json")));
  }

  @Test
  void everyBenchmarkPlansTheGeneratedClusters() throws Exception {
    ToolkitBenchmark b = new ToolkitBenchmark();
    b.clusters = 4;
    b.endpoints = 20;
    b.setUp();

    assertThat(b.read().resources()).hasSize(8);
    assertThat(b.readAndPlan().clusters()).hasSize(4).allMatch(c -> c.state() == ClusterPlan.State.SERVING);
    assertThat(b.plan().clusters()).hasSize(4);
    assertThat(b.diff().changes()).isNotEmpty();
  }
}
