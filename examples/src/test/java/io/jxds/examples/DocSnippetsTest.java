package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Java block of the repository's pages (README.md, docs/, the other top-level .md files) is
 * the text of a compiled source: the lines between a {@code // PAGE:begin} and a {@code
 * // PAGE:end} line of a test source of any module, PAGE being the page's path from the repository
 * root ({@code README.md}, {@code docs/testing.md}). That source compiles with its module's tests,
 * and a test of that module runs it. A page's Java block that no source marks fails here, and so
 * does a marked snippet its page does not show verbatim.
 */
class DocSnippetsTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
  private static final Pattern MARKER = Pattern.compile("// (\\S+\\.md):(begin|end)");

  /** A marked snippet: the page that shows it, where it comes from, and its text. */
  record Snippet(String page, String source, String text) {
    @Override
    public String toString() {
      return source + " -> " + page;
    }
  }

  @Test
  void snippetsAreFoundWhereTheDocsSayTheyAre() {
    assertThat(snippets()).extracting(Snippet::page)
        .contains("README.md", "docs/configuration.md", "docs/tls.md", "docs/testing.md", "docs/operating.md",
            "docs/xds-client.md");
  }

  @ParameterizedTest
  @MethodSource("snippets")
  void pageShowsTheSnippetVerbatim(Snippet snippet) throws IOException {
    assertThat(javaBlocks(snippet.page())).as("Java blocks of %s", snippet.page()).contains(snippet.text());
  }

  @ParameterizedTest
  @MethodSource("pages")
  void everyJavaBlockOfThePageIsACompiledSnippet(String page) throws IOException {
    List<String> compiled = snippets().stream().filter(s -> s.page().equals(page)).map(Snippet::text).toList();

    assertThat(javaBlocks(page)).as("Java blocks of %s that no test source marks with // %s:begin", page, page)
        .allSatisfy(block -> assertThat(compiled).contains(block));
  }

  /** README.md and the other top-level pages, and every page under docs/. */
  static List<String> pages() throws IOException {
    List<String> pages = new ArrayList<>();
    try (Stream<Path> top = Files.list(ROOT); Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      Stream.concat(top, docs).filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
          .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .forEach(pages::add);
    }
    return pages;
  }

  /** Every marked snippet of every module's test sources. */
  static List<Snippet> snippets() {
    List<Snippet> snippets = new ArrayList<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path tests : modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> sources = Files.walk(tests)) {
          for (Path source : sources.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            snippets.addAll(snippetsOf(source));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return snippets;
  }

  private static List<Snippet> snippetsOf(Path source) throws IOException {
    List<String> lines = Files.readAllLines(source);
    String name = ROOT.relativize(source).toString();
    List<Snippet> found = new ArrayList<>();
    String open = null;
    int from = 0;
    for (int i = 0; i < lines.size(); i++) {
      Matcher marker = MARKER.matcher(lines.get(i).strip());
      if (!marker.matches()) {
        continue;
      }
      String page = marker.group(1);
      if (marker.group(2).equals("begin")) {
        assertThat(open).as("%s:%d: %s begins inside %s's snippet", name, i + 1, page, open).isNull();
        open = page;
        from = i + 1;
      } else {
        assertThat(page).as("%s:%d: the snippet that ends", name, i + 1).isEqualTo(open);
        found.add(new Snippet(page, name, String.join("\n", lines.subList(from, i))));
        open = null;
      }
    }
    assertThat(open).as("%s: a snippet for %s that does not end", name, open).isNull();
    return found;
  }

  /** The content of each fenced {@code java} block of {@code page}. */
  private static List<String> javaBlocks(String page) throws IOException {
    List<String> blocks = new ArrayList<>();
    List<String> block = null;
    for (String line : Files.readAllLines(ROOT.resolve(page))) {
      if (block == null && line.equals("```java")) {
        block = new ArrayList<>();
      } else if (block != null && line.equals("```")) {
        blocks.add(String.join("\n", block));
        block = null;
      } else if (block != null) {
        block.add(line);
      }
    }
    return blocks;
  }
}
