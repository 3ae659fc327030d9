package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.testing.Poll;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

    // 1.3 s a step for the fifteen steps (the whole test took 34-44 s at load 20 with ten steps and with fifteen).
    DemoScript.Result result = new EmbeddedDemo(DemoOptions.parse("--duration", "20", "--status"), out).run();

    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(result.passed()).as("demo output:%n%s", printed).isTrue();
    assertThat(result.steps()).extracting(DemoScript.StepResult::title).containsExactly("equal weights",
        "locality weights 1:1:2", "endpoint c1 weight 3", "10% drops", "priority 0 down: failover",
        "priority 0 back: failback", "cluster removed", "cluster restored", "canary split 90/10",
        "header route to the canary", "flaky backend", "retry policy hides it", "sick backend ejected",
        "healed backend back", "sticky by user");
    assertThat(printed).contains("channel xds:///payments").contains("demo OK")
        .contains("==> step 15/15: sticky by user");
    // --status: the CSDS table, once traffic flows and at the end: the listener and its routes too.
    assertThat(printed).contains("node \"jxds-demo\", control plane 127.0.0.1:")
        .containsPattern("LDS +payments +ACKED")
        .containsPattern("RDS +payments-routes +ACKED")
        .containsPattern("CDS +payments +ACKED")
        .containsPattern("CDS +payments-canary +ACKED")
        .containsPattern("EDS +payments +ACKED");
    assertThat(printed.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
    // The JVM of ./demo exits on its own: nothing the run started may keep it alive. Threads end
    // asynchronously once shut down, so wait for them (bounded) rather than sleep and look.
    Poll.until(() -> "non-daemon threads the demo started to end, still alive: " + lingering(before),
        Duration.ofSeconds(10), () -> lingering(before).isEmpty());
  }

  /** The live non-daemon threads that were not there {@code before}, by name. */
  private static Set<String> lingering(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive() && !t.isDaemon())
        .map(Thread::getName).collect(Collectors.toSet());
  }
}
