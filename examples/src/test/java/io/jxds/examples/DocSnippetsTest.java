package io.jxds.examples;

import static io.jxds.examples.DocSnippet.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every code block of the repository's pages (README.md, docs/, the other top-level .md files) is
 * the text of a compiled source, which a test of its module runs:
 *
 * <ul>
 *   <li>a {@code java} block: the lines between a {@code // PAGE:begin} and a {@code // PAGE:end}
 *       line of a test source of any module, PAGE being the page's path from the repository root
 *       ({@code README.md}, {@code docs/testing.md}); the source compiles with its module's tests;
 *   <li>a {@code json}, {@code xml} or {@code kotlin} block: a whole file under a module's {@code
 *       src/test/resources/doc-snippets/PAGE/} (PAGE without {@code .md}), ending in {@code .json},
 *       {@code .xml} or {@code .kts}, which its test reads with {@link DocSnippet#read} (a bootstrap
 *       a test routes RPCs with; dependencies {@link DependencySnippetsTest} checks against the
 *       poms).
 * </ul>
 *
 * <p>A block in another language fails here, and so does a block no source holds, or a snippet
 * its page does not show verbatim. Blocks without a language are commands and their output.
 */
class DocSnippetsTest {
  private static final Pattern MARKER = Pattern.compile("// (\\S+\\.md):(begin|end)");
  private static final Map<String, String> LANGUAGE_BY_EXTENSION = Map.of(".json", "json", ".xml", "xml",
      ".kts", "kotlin");

  /** A fenced block of a page: its language tag and its text. */
  record Block(String language, String text) {}

  @Test
  void snippetsAreFoundWhereTheDocsSayTheyAre() {
    assertThat(snippets()).extracting(DocSnippet::page)
        .contains("README.md", "docs/configuration.md", "docs/tls.md", "docs/testing.md", "docs/operating.md",
            "docs/xds-client.md");
    assertThat(snippets()).extracting(DocSnippet::language).contains("java", "json", "xml", "kotlin");
  }

  @ParameterizedTest
  @MethodSource("snippets")
  void pageShowsTheSnippetVerbatim(DocSnippet snippet) {
    assertThat(blocks(snippet.page())).as("%s blocks of %s", snippet.language(), snippet.page())
        .contains(new Block(snippet.language(), snippet.text()));
  }

  @ParameterizedTest
  @MethodSource("pages")
  void everyCodeBlockOfThePageIsACompiledSnippet(String page) {
    List<Block> compiled = snippets().stream().filter(s -> s.page().equals(page))
        .map(s -> new Block(s.language(), s.text())).toList();

    assertThat(blocks(page)).as("code blocks of %s that no test source holds (// %s:begin, or a file under %s/%s/)",
            page, page, DocSnippet.RESOURCES, page.replaceAll("\\.md$", ""))
        .allSatisfy(block -> assertThat(compiled).contains(block));
  }

  /** README.md and the other top-level pages, and every page under docs/. */
  static List<String> pages() throws IOException {
    List<String> pages = new ArrayList<>();
    try (Stream<Path> top = Files.list(ROOT); Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      Stream.concat(top, docs).filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
          .map(DocSnippetsTest::fromRoot)
          .sorted()
          .forEach(pages::add);
    }
    return pages;
  }

  /** Every snippet of every module's test sources and test resources. */
  static List<DocSnippet> snippets() {
    List<DocSnippet> snippets = new ArrayList<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
        for (Path source : files(module.resolve("src/test/java"))) {
          if (source.toString().endsWith(".java")) {
            snippets.addAll(markedIn(source));
          }
        }
        Path resources = module.resolve(DocSnippet.RESOURCES);
        for (Path file : files(resources)) {
          snippets.add(wholeFile(resources, file));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return snippets;
  }

  private static List<Path> files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private static List<DocSnippet> markedIn(Path source) throws IOException {
    List<String> lines = Files.readAllLines(source);
    String name = fromRoot(source);
    List<DocSnippet> found = new ArrayList<>();
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
        found.add(new DocSnippet(page, "java", name, String.join("\n", lines.subList(from, i))));
        open = null;
      }
    }
    assertThat(open).as("%s: a snippet for %s that does not end", name, open).isNull();
    return found;
  }

  private static DocSnippet wholeFile(Path resources, Path file) throws IOException {
    String fileName = file.getFileName().toString();
    String language = LANGUAGE_BY_EXTENSION.get(fileName.substring(Math.max(0, fileName.lastIndexOf('.'))));
    assertThat(language).as("%s: a snippet file ends in one of %s", fromRoot(file), LANGUAGE_BY_EXTENSION.keySet())
        .isNotNull();
    String page = resources.relativize(file.getParent()).toString().replace('\\', '/') + ".md";
    return new DocSnippet(page, language, fromRoot(file), Files.readString(file).stripTrailing());
  }

  /** Each fenced block of {@code page} with a language tag. */
  private static List<Block> blocks(String page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(ROOT.resolve(page));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Block> blocks = new ArrayList<>();
    String language = null;
    List<String> block = null;
    for (String line : lines) {
      if (block == null && line.startsWith("```")) {
        language = line.substring(3).strip();
        block = new ArrayList<>();
      } else if (block != null && line.equals("```")) {
        if (!language.isEmpty()) {
          blocks.add(new Block(language, String.join("\n", block)));
        }
        block = null;
      } else if (block != null) {
        block.add(line);
      }
    }
    return blocks;
  }

  private static String fromRoot(Path path) {
    return ROOT.relativize(path).toString().replace('\\', '/');
  }
}
