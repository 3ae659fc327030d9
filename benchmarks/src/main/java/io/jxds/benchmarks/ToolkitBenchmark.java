package io.jxds.benchmarks;

import io.jxds.toolkit.BadInputException;
import io.jxds.toolkit.PlanDiff;
import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.TrafficPlan;
import io.jxds.toolkit.internal.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The control-plane toolkit on a generated snapshot of {@code clusters} × {@code endpoints} (the
 * shapes of {@code xds-toolkit/src/test/resources/examples/generate-snapshot.py}: 4 localities, the
 * last at priority 1, weights 1-7, every 13th endpoint UNHEALTHY), in memory: {@code read} parses
 * the JSON text into a {@link Snapshot}; {@code readAndPlan} reads, checks and plans (what
 * {@code ./jxds check} does before printing); {@code plan} checks and plans a snapshot already read;
 * {@code diff} plans two snapshots (the second with shifted weights and health) and compares them;
 * {@code checkJsonCommand} and {@code diffCommand} are {@code ./jxds check --json FILE} and
 * {@code ./jxds diff BEFORE AFTER} whole (reading the files, output to a null writer) in a warm JVM.
 * Run with {@code -prof gc} for the allocation per plan.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class ToolkitBenchmark {
  @Param({"1000"})
  public int clusters;

  @Param({"100"})
  public int endpoints;

  String json;
  Snapshot before;
  Snapshot after;
  Path beforeFile;
  Path afterFile;

  @Setup
  public void setUp() throws BadInputException, IOException {
    json = snapshotJson(clusters, endpoints, 0);
    String shifted = snapshotJson(clusters, endpoints, 1);
    before = Snapshot.parse(json, "before.json");
    after = Snapshot.parse(shifted, "after.json");
    beforeFile = Files.createTempFile("jxds-bench-before", ".json");
    afterFile = Files.createTempFile("jxds-bench-after", ".json");
    Files.writeString(beforeFile, json);
    Files.writeString(afterFile, shifted);
  }

  @TearDown
  public void tearDown() throws IOException {
    Files.deleteIfExists(beforeFile);
    Files.deleteIfExists(afterFile);
  }

  @Benchmark
  public Snapshot read() throws BadInputException {
    return Snapshot.parse(json, "before.json");
  }

  @Benchmark
  public TrafficPlan readAndPlan() throws BadInputException {
    return Snapshot.parse(json, "before.json").plan();
  }

  @Benchmark
  public TrafficPlan plan() {
    return before.plan();
  }

  @Benchmark
  public PlanDiff diff() {
    return PlanDiff.between(before, after);
  }

  @Benchmark
  public int checkJsonCommand() {
    return Main.run(new String[] {"check", "--json", beforeFile.toString()}, nullWriter(), nullWriter());
  }

  @Benchmark
  public int diffCommand() {
    return Main.run(new String[] {"diff", beforeFile.toString(), afterFile.toString()}, nullWriter(), nullWriter());
  }

  private static PrintWriter nullWriter() {
    return new PrintWriter(Writer.nullWriter());
  }

  /** Two DiscoveryResponses in a JSON array, as generate-snapshot.py writes them. */
  static String snapshotJson(int clusters, int endpoints, int shift) {
    String cds = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
    String eds = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
    StringBuilder c = new StringBuilder("{\"type_url\": \"" + cds + "\", \"version_info\": \"1\", \"resources\": [");
    StringBuilder e = new StringBuilder("{\"type_url\": \"" + eds + "\", \"version_info\": \"1\", \"resources\": [");
    int perLocality = endpoints / 4;
    for (int k = 0; k < clusters; k++) {
      String name = "svc-" + k;
      c.append(k == 0 ? "" : ", ").append("{\"@type\": \"").append(cds).append("\", \"name\": \"").append(name)
          .append("\", \"type\": \"EDS\", \"eds_cluster_config\": {\"eds_config\": {\"ads\": {}}}}");
      e.append(k == 0 ? "" : ", ").append("{\"@type\": \"").append(eds).append("\", \"cluster_name\": \"")
          .append(name).append("\", \"endpoints\": [");
      for (int l = 0; l < 4; l++) {
        e.append(l == 0 ? "" : ", ").append("{\"locality\": {\"region\": \"r\", \"zone\": \"z").append(l)
            .append("\"}, \"load_balancing_weight\": ").append(1 + (l + shift) % 3).append(", \"priority\": ")
            .append(l < 3 ? 0 : 1).append(", \"lb_endpoints\": [");
        for (int j = 0; j < perLocality; j++) {
          int i = l * perLocality + j;
          e.append(j == 0 ? "" : ", ").append("{\"endpoint\": {\"address\": {\"socket_address\": {\"address\": \"10.")
              .append(k / 250).append('.').append(k % 250).append('.').append(i)
              .append("\", \"port_value\": 8080}}}, \"load_balancing_weight\": ").append(1 + (i + shift) % 7)
              .append(", \"health_status\": \"").append((i + shift) % 13 != 0 ? "HEALTHY" : "UNHEALTHY")
              .append("\"}");
        }
        e.append("]}");
      }
      e.append("]}");
    }
    return "[" + c.append("]}") + ", " + e.append("]}") + "]";
  }
}
