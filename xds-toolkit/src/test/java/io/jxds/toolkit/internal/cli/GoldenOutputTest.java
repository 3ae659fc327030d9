package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every output of {@code ./jxds} on the examples and on the golden inputs (generated snapshots;
 * ring hash, maglev and least request clusters with drops), byte for byte, so that a faster path
 * cannot change a share, a digit or an order. The expected outputs are files under
 * {@code src/test/resources/golden}; {@code -Djxds.golden.update=true} rewrites them (then review
 * the diff).
 */
class GoldenOutputTest {
  private static final Path GOLDEN_SOURCE = Path.of("src/test/resources/golden");

  static Stream<Arguments> commands() {
    List<Arguments> all = new ArrayList<>();
    for (String file : List.of("examples/before.json", "examples/after.json", "examples/routes.json",
        "golden/generated.json", "golden/policies.json")) {
      all.add(Arguments.of(List.of("check", file)));
      all.add(Arguments.of(List.of("check", "--json", file)));
    }
    all.add(Arguments.of(List.of("check", "golden/generated.json", "golden/policies.json")));
    for (String[] pair : new String[][] {{"examples/before.json", "examples/after.json"},
        {"golden/generated.json", "golden/generated-shifted.json"},
        {"golden/policies.json", "golden/policies-shifted.json"}}) {
      all.add(Arguments.of(List.of("diff", pair[0], pair[1])));
      all.add(Arguments.of(List.of("diff", "--json", pair[0], pair[1])));
    }
    all.add(Arguments.of(List.of("route", "examples/routes.json", "--authority", "payments.example.com", "--path",
        "/payments.Payments/Charge")));
    all.add(Arguments.of(List.of("route", "--json", "examples/routes.json", "--authority", "payments.example.com",
        "--path", "/payments.Payments/Charge", "--header", "x-canary=yes")));
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("commands")
  void outputIsByteIdenticalToTheGoldenFile(List<String> command) throws Exception {
    Path resources = resourceRoot();
    String[] args = command.stream().map(a -> a.endsWith(".json") ? resources.resolve(a).toString() : a)
        .toArray(String[]::new);
    MainRun run = MainRun.of(args);
    String actual = "exit " + run.code() + "\n" + run.out().replace(resources + "/", "") + run.err();

    String name = String.join("_", command).replaceAll("[^A-Za-z0-9.=-]+", "_") + ".out";
    if (Boolean.getBoolean("jxds.golden.update")) {
      Files.writeString(GOLDEN_SOURCE.resolve(name), actual, StandardCharsets.UTF_8);
    }
    String expected = Files.readString(GOLDEN_SOURCE.resolve(name), StandardCharsets.UTF_8);
    assertThat(actual).isEqualTo(expected);
  }

  private static Path resourceRoot() throws URISyntaxException, IOException {
    return Path.of(GoldenOutputTest.class.getResource("/examples/before.json").toURI()).getParent().getParent();
  }
}
