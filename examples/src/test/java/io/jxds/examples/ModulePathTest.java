package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jxds on the module path, as a modular application uses it (ARCHITECTURE.md, "Modules"): an
 * application module that requires {@code io.jxds.balancer} and {@code io.jxds.testing} compiles
 * against the exported packages only, and routes an RPC through {@code xds-cluster:///}, which
 * needs the balancer's and resolver's {@code provides} clauses to reach gRPC's registries.
 */
class ModulePathTest {
  /**
   * What this module's tests have on the class path but a jxds application does not: the test
   * framework, and examples' own classes (not a module).
   */
  private static final List<String> NOT_APPLICATION = List.of(
      "junit-", "opentest4j", "apiguardian", "assertj-", "surefire", "logback-", "byte-buddy");

  @TempDir Path work;

  @Test
  void applicationModuleCompilesAgainstExportedPackagesAndRoutesAnRpc() throws Exception {
    String modulePath = jxdsModulePath();
    Path classes = work.resolve("classes");
    compile(Path.of(resource("modulepath/app")), classes, modulePath);

    Process run = new ProcessBuilder(
            javaLauncher(),
            "--module-path", classes + File.pathSeparator + modulePath,
            // Guava is an automatic module that does not require its failureaccess module, so
            // nothing would resolve that one (README, "On the module path").
            "--add-modules", "ALL-MODULE-PATH",
            "--module", "jxds.modulepath/jxds.modulepath.Main")
        .redirectErrorStream(true)
        .start();
    boolean ended = run.waitFor(90, TimeUnit.SECONDS);
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!ended) {
      run.destroyForcibly();
    }
    assertThat(ended).as("module-path run ended; output:%n%s", output).isTrue();
    assertThat(run.exitValue()).as("exit code; output:%n%s", output).isZero();
    assertThat(output)
        .contains("module io.jxds.balancer named=true")
        .contains("internal exported=false")
        .contains("routed: 1 resource(s) of type.googleapis.com/envoy.config.cluster.v3.Cluster");
  }

  @Test
  void internalPackagesAreNotReadableFromAnApplicationModule() throws Exception {
    Path source = work.resolve("src");
    Files.createDirectories(source.resolve("peek"));
    Files.writeString(source.resolve("module-info.java"), "module peek { requires io.jxds.balancer; }\n");
    Files.writeString(source.resolve("peek/Peek.java"),
        "package peek;\n"
            + "public class Peek { Object o = io.jxds.balancer.internal.XdsClusterLoadBalancerProvider.class; }\n");

    String errors = compileErrors(source, work.resolve("out"), jxdsModulePath());

    assertThat(errors).contains("package io.jxds.balancer.internal is declared in module io.jxds.balancer, "
        + "which does not export it");
  }

  /** The test class path minus the test framework and this module's own classes. */
  private static String jxdsModulePath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> NOT_APPLICATION.stream().noneMatch(name -> Paths.get(entry).getFileName().toString()
            .startsWith(name)))
        .filter(entry -> !entry.contains("examples" + File.separator + "target"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static void compile(Path sourceRoot, Path out, String modulePath) throws IOException {
    String errors = compileErrors(sourceRoot, out, modulePath);
    assertThat(errors).as("compiling the application module").isEmpty();
  }

  /** Compiles every source under {@code sourceRoot} as one module; returns javac's diagnostics. */
  private static String compileErrors(Path sourceRoot, Path out, String modulePath) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    // An empty class path: in-process javac would otherwise take this JVM's, where jxds's
    // packages are in the unnamed module.
    Path noClassPath = Files.createDirectories(out.resolveSibling(out.getFileName() + "-empty"));
    List<String> arguments = new ArrayList<>(List.of(
        "-d", out.toString(), "--module-path", modulePath, "--class-path", noClassPath.toString()));
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> arguments.add(f.toString()));
    }
    java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
    String text = diagnostics.toString(StandardCharsets.UTF_8);
    return status == 0 ? "" : text;
  }

  private static String resource(String name) throws URISyntaxException {
    return Paths.get(ModulePathTest.class.getClassLoader().getResource(name).toURI()).toString();
  }

  private static String javaLauncher() {
    return ProcessHandle.current().info().command().orElse(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString());
  }
}
