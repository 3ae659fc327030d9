package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * README's "Testing a control plane with FakeAdsServer" and docs/testing.md show these tests
 * verbatim, each the lines between its {@code // DOC:begin} and {@code // DOC:end} markers; the
 * tests themselves run in this module's (and the fixtures') suites.
 */
class TestingDocsTest {
  @Test
  void readmeShowsTheTestBedExampleVerbatim() throws IOException {
    String readme = Files.readString(Path.of("../README.md"));

    assertThat(readme).contains(snippet("src/test/java/io/jxds/examples/PaymentsRoutingTest.java", "README"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "src/test/java/io/jxds/examples/IstioRoutingTest.java",
      "src/test/java/io/jxds/examples/ControlPlaneAuthorExampleTest.java",
      "../src-test-fixtures/src/test/java/io/jxds/testing/AdsStreamExampleTest.java"})
  void testingDocShowsTheExampleVerbatim(String source) throws IOException {
    String doc = Files.readString(Path.of("../docs/testing.md"));

    assertThat(doc).contains(snippet(source, "docs/testing.md"));
  }

  private static String snippet(String source, String doc) throws IOException {
    List<String> lines = Files.readAllLines(Path.of(source));
    int begin = lines.indexOf("// " + doc + ":begin");
    int end = lines.indexOf("// " + doc + ":end");
    assertThat(begin).as("%s's %s markers", source, doc).isNotNegative().isLessThan(end);
    return String.join("\n", lines.subList(begin + 1, end));
  }
}
