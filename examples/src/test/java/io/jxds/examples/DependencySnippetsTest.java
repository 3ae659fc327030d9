package io.jxds.examples;

import static io.jxds.examples.DocSnippet.ROOT;
import static io.jxds.examples.Poms.child;
import static io.jxds.examples.Poms.elements;
import static io.jxds.examples.Poms.pom;
import static io.jxds.examples.Poms.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Maven and Gradle snippets of the pages ({@link DocSnippetsTest} finds them) declare what the
 * build is: jxds artifacts the BOM lists at the root pom's version, and gRPC and SLF4J at the
 * versions the root pom builds and tests with. README's Maven and Gradle snippets declare the same
 * artifacts and import the BOM, and README names the gRPC, protobuf and java-control-plane
 * versions of the root pom.
 */
class DependencySnippetsTest {
  private static final Pattern GRADLE_COORDINATES = Pattern.compile("\"([\\w.-]+):([\\w.-]+)(?::([\\w.-]+))?\"");
  /** For each group a snippet may name, the root pom property holding its version. */
  private static final Map<String, String> VERSION_PROPERTY = Map.of(
      "io.jxds", "project.version", "io.grpc", "grpc.version", "org.slf4j", "slf4j.version");

  private static Element rootPom;
  private static Set<String> bomArtifacts;

  /** A dependency a snippet declares; {@code version} is empty when the BOM manages it. */
  record Coordinates(String group, String artifact, String version) {
    String key() {
      return group + ":" + artifact;
    }
  }

  @BeforeAll
  static void readPoms() throws Exception {
    rootPom = pom(ROOT.resolve("pom.xml"));
    bomArtifacts = new TreeSet<>(Set.of("jxds-bom"));
    Element bom = pom(ROOT.resolve("jxds-bom").resolve("pom.xml"));
    for (Element dependency : elements(child(child(bom, "dependencyManagement"), "dependencies"))) {
      bomArtifacts.add(text(dependency, "artifactId", ""));
    }
  }

  static List<DocSnippet> dependencySnippets() {
    return DocSnippetsTest.snippets().stream().filter(s -> Set.of("xml", "kotlin").contains(s.language())).toList();
  }

  @ParameterizedTest
  @MethodSource("dependencySnippets")
  void snippetDeclaresWhatTheBuildIs(DocSnippet snippet) throws Exception {
    List<Coordinates> declared = coordinates(snippet);

    assertThat(declared).as("dependencies of %s", snippet).isNotEmpty().allSatisfy(c -> {
      assertThat(VERSION_PROPERTY).as("groups %s knows the version of", snippet).containsKey(c.group());
      if (c.group().equals("io.jxds")) {
        assertThat(bomArtifacts).as("jxds artifacts (jxds-bom lists them)").contains(c.artifact());
      }
      if (!c.version().isEmpty()) {
        assertThat(c.version()).as("%s's version in %s", c.key(), snippet).isEqualTo(rootVersion(c.group()));
      }
    });
  }

  @Test
  void readmeDeclaresTheSameArtifactsForMavenAndGradleAndImportsTheBom() throws Exception {
    List<Coordinates> maven = coordinates(readmeSnippet("xml"));
    List<Coordinates> gradle = coordinates(readmeSnippet("kotlin"));

    assertThat(gradle).extracting(Coordinates::key).containsExactlyInAnyOrderElementsOf(
        maven.stream().map(Coordinates::key).toList());
    assertThat(maven).extracting(Coordinates::key).contains("io.jxds:jxds-bom");
    assertThat(readmeSnippet("xml").text()).contains("<type>pom</type><scope>import</scope>");
    assertThat(readmeSnippet("kotlin").text()).contains("platform(\"io.jxds:jxds-bom:");
  }

  @Test
  void readmeNamesTheVersionsTheBuildUses() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));

    assertThat(readme).contains("grpc-java " + property("grpc.version"), "protobuf " + property("protobuf.version"),
        "java-control-plane " + property("envoy.controlplane.version"));
  }

  private static DocSnippet readmeSnippet(String language) {
    return dependencySnippets().stream().filter(s -> s.page().equals("README.md") && s.language().equals(language))
        .findFirst().orElseThrow(() -> new AssertionError("README.md has no " + language + " snippet"));
  }

  private static List<Coordinates> coordinates(DocSnippet snippet) throws Exception {
    List<Coordinates> found = new ArrayList<>();
    if (snippet.language().equals("xml")) {
      Element project = Poms.parse("<project>" + snippet.text() + "</project>");
      NodeList dependencies = project.getElementsByTagName("dependency");
      for (int i = 0; i < dependencies.getLength(); i++) {
        Element dependency = (Element) dependencies.item(i);
        found.add(new Coordinates(text(dependency, "groupId", ""), text(dependency, "artifactId", ""),
            text(dependency, "version", "")));
      }
    } else {
      Matcher m = GRADLE_COORDINATES.matcher(snippet.text());
      while (m.find()) {
        found.add(new Coordinates(m.group(1), m.group(2), m.group(3) == null ? "" : m.group(3)));
      }
    }
    return found;
  }

  private static String rootVersion(String group) {
    String property = VERSION_PROPERTY.get(group);
    return property.equals("project.version") ? text(rootPom, "version", "") : property(property);
  }

  private static String property(String name) {
    String value = text(child(rootPom, "properties"), name, "");
    assertThat(value).as("root pom property %s", name).isNotEmpty();
    return value;
  }
}
