package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jxds on the module path, as a modular application uses it (docs/module-path.md):
 * each published jar is an automatic module named by its manifest's {@code Automatic-Module-Name},
 * so an application module that requires {@code io.jxds.balancer} and {@code io.jxds.testing}
 * compiles, and routes an RPC through {@code xds-cluster:///}, which needs the balancer's
 * {@code META-INF/services} entries to reach gRPC's registries. An integration test
 * (maven-failsafe-plugin, after {@code package}): the names live in the jars' manifests.
 */
class ModulePathIT {
  /**
   * What this module's tests have on the class path but a jxds application does not: the test
   * framework, and examples' own classes (not a module).
   */
  private static final List<String> NOT_APPLICATION = List.of(
      "junit-", "opentest4j", "apiguardian", "assertj-", "surefire", "logback-", "byte-buddy");

  /** Each published artifact and the module name its manifest gives it. */
  private static final Map<String, String> PUBLISHED = Map.of(
      "xds-api", "io.jxds.api",
      "xds-client", "io.jxds.client",
      "xds-balancer", "io.jxds.balancer",
      "xds-test-fixtures", "io.jxds.testing");

  @TempDir Path work;

  @Test
  void applicationModuleCompilesAgainstJxdsAndRoutesAnRpc() throws Exception {
    String modulePath = jxdsModulePath();
    Path classes = work.resolve("classes");
    compile(Path.of(resource("modulepath/app")), classes, modulePath);

    Process run = new ProcessBuilder(
            javaLauncher(),
            "--module-path", classes + File.pathSeparator + modulePath,
            // Explicit modules that only automatic modules use (org.slf4j) and Guava's failureaccess
            // are resolved only when named (docs/module-path.md).
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
        .contains("module io.jxds.balancer named=true automatic=true")
        .contains("routed: 1 resource(s) of type.googleapis.com/envoy.config.cluster.v3.Cluster");
  }

  @Test
  void publishedJarsNameTheirModuleWhateverTheirFileIsCalled() throws IOException {
    Map<String, String> names = new TreeMap<>();
    for (Map.Entry<String, Path> jar : publishedJars().entrySet()) {
      // A module name derived from the file name would be "renamed" here.
      Path renamed = Files.createDirectories(work.resolve(jar.getKey())).resolve("renamed.jar");
      Files.copy(jar.getValue(), renamed);
      Set<ModuleReference> found = ModuleFinder.of(renamed).findAll();
      assertThat(found).as("modules in %s", jar.getValue()).hasSize(1);
      ModuleDescriptor descriptor = found.iterator().next().descriptor();
      assertThat(descriptor.isAutomatic()).as("%s is an automatic module", jar.getValue()).isTrue();
      names.put(jar.getKey(), descriptor.name());
    }

    assertThat(names).isEqualTo(new TreeMap<>(PUBLISHED));
  }

  @Test
  void balancerJarProvidesThePolicyAndTheResolverToGrpc() throws IOException {
    ModuleDescriptor balancer = ModuleFinder.of(publishedJars().get("xds-balancer")).findAll()
        .iterator().next().descriptor();
    Map<String, List<String>> provides = balancer.provides().stream()
        .collect(Collectors.toMap(ModuleDescriptor.Provides::service, ModuleDescriptor.Provides::providers));

    assertThat(provides)
        .containsEntry("io.grpc.LoadBalancerProvider", List.of(
            "io.jxds.balancer.internal.XdsClusterLoadBalancerProvider",
            "io.jxds.balancer.internal.manager.ClusterManagerLoadBalancerProvider"))
        .containsEntry("io.grpc.NameResolverProvider", List.of(
            "io.jxds.balancer.XdsClusterNameResolverProvider",
            "io.jxds.balancer.internal.resolver.XdsNameResolverProvider",
            "io.jxds.balancer.internal.resolver.JxdsNameResolverProvider"));
  }

  /** The jar of each published artifact on this test's class path, by artifact id. */
  private static Map<String, Path> publishedJars() {
    Map<String, Path> jars = new TreeMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Paths.get(entry);
      // target/classes of a reactor module, or NAME-VERSION.jar from a repository.
      String artifact = path.endsWith(Paths.get("target", "classes"))
          ? path.getParent().getParent().getFileName().toString()
          : path.getFileName().toString().replaceFirst("-\\d.*\\.jar$", "");
      if (PUBLISHED.containsKey(artifact)) {
        assertThat(path.toString()).as("%s is a jar (run through 'verify', after 'package')", artifact)
            .endsWith(".jar");
        jars.put(artifact, path);
      }
    }
    assertThat(jars.keySet()).as("published jars on the class path").isEqualTo(PUBLISHED.keySet());
    return jars;
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
    return Paths.get(ModulePathIT.class.getClassLoader().getResource(name).toURI()).toString();
  }

  private static String javaLauncher() {
    return ProcessHandle.current().info().command().orElse(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString());
  }
}
