package io.jxds.examples;

import static io.jxds.examples.DocSnippet.ROOT;
import static io.jxds.examples.Poms.child;
import static io.jxds.examples.Poms.children;
import static io.jxds.examples.Poms.elements;
import static io.jxds.examples.Poms.pom;
import static io.jxds.examples.Poms.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * jxds-bom has no parent (its pom says why), so nothing but this test keeps it in step with the
 * reactor: it must list every published artifact, and carry the root pom's version.
 */
class JxdsBomTest {
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
}
