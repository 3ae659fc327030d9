package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The whole demo script, in-process and shortened, as CI runs it: every step must show its effect. */
class EmbeddedDemoTest {
  @Test
  void everyStepOfTheScriptShowsItsEffect() throws Exception {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    DemoScript.Result result = new EmbeddedDemo(DemoOptions.parse("--duration", "16", "--status"), out).run();

    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(result.passed()).as("demo output:%n%s", printed).isTrue();
    assertThat(result.steps()).hasSize(8);
    assertThat(printed).contains("demo OK").contains("==> step 8/8: cluster restored");
    // --status: the CSDS table, once traffic flows and at the end.
    assertThat(printed).contains("node \"jxds-demo\", control plane 127.0.0.1:")
        .containsPattern("CDS +payments +ACKED")
        .containsPattern("EDS +payments +ACKED");
    assertThat(printed.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
    // The JVM of ./demo exits on its own: nothing the run started may keep it alive.
    Thread.sleep(200);
    Set<String> lingering = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive() && !t.isDaemon())
        .map(Thread::getName).collect(Collectors.toSet());
    assertThat(lingering).isEmpty();
  }
}
