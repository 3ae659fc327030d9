package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * jxds-bom has no parent (its pom says why), so nothing but this test keeps it in step with the
 * reactor: it must list every published artifact, and carry the root pom's version.
 */
class JxdsBomTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

  @Test
  void bomListsEveryPublishedArtifact() throws Exception {
    Set<String> published = new TreeSet<>();
    for (String module : children(pom(ROOT.resolve("pom.xml")), "modules")) {
      Element pom = pom(ROOT.resolve(module).resolve("pom.xml"));
      boolean jar = text(pom, "packaging", "jar").equals("jar");
      boolean deployed = !text(child(pom, "properties"), "maven.deploy.skip", "false").equals("true");
      if (jar && deployed) {
        published.add(text(pom, "artifactId", ""));
      }
    }

    Set<String> listed = new TreeSet<>();
    Element bom = pom(ROOT.resolve("jxds-bom").resolve("pom.xml"));
    for (Element dependency : elements(child(child(bom, "dependencyManagement"), "dependencies"))) {
      assertThat(text(dependency, "groupId", "")).isEqualTo("io.jxds");
      assertThat(text(dependency, "version", "")).isEqualTo("${project.version}");
      listed.add(text(dependency, "artifactId", ""));
    }

    assertThat(published).as("published artifacts of the reactor").isNotEmpty();
    assertThat(listed).as("artifacts jxds-bom lists").isEqualTo(published);
  }

  @Test
  void bomHasTheRootPomsVersion() throws Exception {
    String root = text(pom(ROOT.resolve("pom.xml")), "version", "");
    String bom = text(pom(ROOT.resolve("jxds-bom").resolve("pom.xml")), "version", "");

    assertThat(bom).as("jxds-bom's version").isEqualTo(root);
  }

  private static Element pom(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
  }

  /** The text of each child element of {@code parent}'s child {@code name}. */
  private static List<String> children(Element parent, String name) {
    List<String> texts = new ArrayList<>();
    for (Element element : elements(child(parent, name))) {
      texts.add(element.getTextContent().trim());
    }
    return texts;
  }

  private static String text(Element parent, String name, String absent) {
    Element child = child(parent, name);
    return child == null ? absent : child.getTextContent().trim();
  }

  private static Element child(Element parent, String name) {
    if (parent == null) {
      return null;
    }
    for (Element element : elements(parent)) {
      if (element.getTagName().equals(name)) {
        return element;
      }
    }
    return null;
  }

  private static List<Element> elements(Element parent) {
    List<Element> elements = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        elements.add(element);
      }
    }
    return elements;
  }
}
