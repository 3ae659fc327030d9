package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's quick start ({@link QuickStart}) is a whole program: run as one, in a JVM of its own
 * (its system property and pooled client stay there), it routes its RPC through the control plane
 * to the backend and exits on its own. README shows it verbatim ({@link DocSnippetsTest}).
 */
class QuickStartTest {
  @TempDir Path dir;

  @Test
  void programRoutesItsRpcThroughTheControlPlaneAndExits() throws Exception {
    Path output = dir.resolve("output.txt");
    Process run = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            QuickStart.class.getName())
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();

    boolean ended = run.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String printed = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(ended).as("the program ended on its own; it printed:%n%s", printed).isTrue();
    assertThat(run.exitValue()).as("exit code; it printed:%n%s", printed).isZero();
    assertThat(printed).contains("payments answered: SERVING");
  }
}
