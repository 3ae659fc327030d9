package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API check every published module runs ({@code config/api/ApiSignatures.java},
 * CONTRIBUTING.md, "The public API"), on a small library compiled here: what the file records,
 * what it leaves out, and how a change fails the build.
 */
class ApiSignaturesTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

  @TempDir Path work;

  @Test
  void recordsPublicAndProtectedSignaturesWithNullnessAndConstants() throws Exception {
    Path classes = compile(Map.of(
        "lib/Api.java", """
            package lib;
            import org.jspecify.annotations.Nullable;
            public class Api {
              public static final String NAME = "lib";
              public Api(@Nullable String name) {}
              public @Nullable String find(java.util.List<? extends Number> keys, int... more) { return null; }
              protected void hook() {}
              void packagePrivate() {}
              private void hidden() {}
            }
            """,
        "lib/Hidden.java", "package lib; class Hidden { public void run() {} }",
        "lib/internal/Seam.java", "package lib.internal; public class Seam { public void run() {} }"));

    Run run = apiCheck(classes, work.resolve("lib.api"), true);

    assertThat(run.exit).as(run.output).isZero();
    assertThat(Files.readString(work.resolve("lib.api"))).contains("""

        package lib

        public class lib.Api
          public static final java.lang.String NAME = "lib"
          public Api(@Nullable java.lang.String)
          protected void hook()
          public @Nullable java.lang.String find(java.util.List<? extends java.lang.Number>, int...)
        """).doesNotContain("Hidden", "Seam", "packagePrivate", "hidden");
  }

  @Test
  void changedApiFailsWithADiffAndTheUpdateCommand() throws Exception {
    Path api = work.resolve("lib.api");
    apiCheck(compile(Map.of("lib/Api.java", "package lib; public final class Api { public void run() {} }")),
        api, true);
    Path changed = compile(Map.of("lib/Api.java",
        "package lib; public final class Api { public void run(int times) {} }"));

    Run run = apiCheck(changed, api, false);

    assertThat(run.exit).isEqualTo(1);
    assertThat(run.output)
        .contains("the public API differs from", "-  public void run()\n", "+  public void run(int)\n")
        .contains("./mvnw -B verify -DskipTests -Djxds.api.update=true");
  }

  @Test
  void apiThatNamesAnInternalTypeFails() throws Exception {
    Path classes = compile(Map.of(
        "lib/Api.java", "package lib; public final class Api { public lib.internal.Seam seam() { return null; } }",
        "lib/internal/Seam.java", "package lib.internal; public class Seam {}"));

    Run run = apiCheck(classes, work.resolve("lib.api"), true);

    assertThat(run.exit).isEqualTo(1);
    assertThat(run.output).contains("the API names types of internal packages",
        "public lib.internal.Seam seam()");
  }

  private record Run(int exit, String output) {}

  private Run apiCheck(Path classes, Path api, boolean update) throws IOException, InterruptedException {
    String classPath = classes + File.pathSeparator + jspecify();
    Process process = new ProcessBuilder(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-classpath", classPath,
            ROOT.resolve("config/api/ApiSignatures.java").toString(),
            work.toString(), classes.toString(), api.toString(), String.valueOf(update))
        .redirectErrorStream(true)
        .start();
    boolean ended = process.waitFor(60, TimeUnit.SECONDS);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ended).as("the API check ended; output:%n%s", output).isTrue();
    return new Run(process.exitValue(), output);
  }

  /** Compiles the sources (path relative to the source root, text) into a fresh directory. */
  private Path compile(Map<String, String> sources) throws IOException {
    Path src = Files.createTempDirectory(work, "src");
    Path out = Files.createTempDirectory(work, "classes");
    List<String> arguments = new ArrayList<>(List.of("-d", out.toString(), "-classpath", jspecify()));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      arguments.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
    assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
    return out;
  }

  private static String jspecify() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> Paths.get(entry).getFileName().toString().startsWith("jspecify-"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
