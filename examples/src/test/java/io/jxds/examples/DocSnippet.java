package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A code block of a page (README.md, docs/*.md) as a compiled source holds it, for {@link
 * DocSnippetsTest}: {@code java} blocks are marked regions of test sources; {@code json},
 * {@code xml} and {@code kotlin} blocks are whole files under {@code
 * src/test/resources/doc-snippets/PAGE/} of a module, PAGE being the page's path without
 * {@code .md} ({@code README}, {@code docs/tls}), which the tests that run them read with {@link
 * #read}.
 *
 * @param page the page that shows it, from the repository root ({@code docs/tls.md})
 * @param language the block's language tag
 * @param source where it comes from, from the repository root
 * @param text its text, as the page shows it
 */
record DocSnippet(String page, String language, String source, String text) {
  /** The repository root: the examples module's parent. */
  static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
  /** Where the non-Java snippets of a module's tests live. */
  static final String RESOURCES = "src/test/resources/doc-snippets";

  @Override
  public String toString() {
    return source + " -> " + page;
  }

  /**
   * The text of a non-Java snippet of this module's tests, as {@code page} shows it.
   *
   * @param page the page, e.g. {@code docs/tls.md}
   * @param file the snippet's file name, e.g. {@code bootstrap.json}
   */
  static String read(String page, String file) {
    Path path = ROOT.resolve("examples").resolve(RESOURCES).resolve(page.replaceAll("\\.md$", "")).resolve(file);
    try {
      return Files.readString(path).stripTrailing();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code text} with {@code from} replaced by {@code to}; fails if {@code text} does not hold
   * {@code from}, so a page's snippet that changes cannot leave its test running something else.
   */
  static String replace(String text, String from, String to) {
    assertThat(text).as("the snippet a test adapts").contains(from);
    return text.replace(from, to);
  }

  /**
   * A bootstrap snippet that a test's pooled client does not outlive: {@code "jxds":
   * {"client_retention": "0s"}} added as the last field of the object.
   */
  static String withoutRetention(String bootstrap) {
    assertThat(bootstrap).as("a bootstrap snippet").endsWith("\n}").doesNotContain("client_retention");
    return bootstrap.substring(0, bootstrap.length() - 2) + ",\n  \"jxds\": {\"client_retention\": \"0s\"}\n}";
  }
}
