package io.jxds.examples;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Reading the repository's poms (and Maven snippets) in tests, as plain DOM. */
final class Poms {
  private Poms() {}

  /** The root element of the pom at {@code file}. */
  static Element pom(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
  }

  /** The root element of {@code xml}. */
  static Element parse(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
  }

  /** The text of each child element of {@code parent}'s child {@code name}. */
  static List<String> children(Element parent, String name) {
    List<String> texts = new ArrayList<>();
    for (Element element : elements(child(parent, name))) {
      texts.add(element.getTextContent().trim());
    }
    return texts;
  }

  /** The trimmed text of {@code parent}'s child {@code name}, or {@code absent} if it has none. */
  static String text(Element parent, String name, String absent) {
    Element child = child(parent, name);
    return child == null ? absent : child.getTextContent().trim();
  }

  /** {@code parent}'s first child element called {@code name}, or null. */
  static Element child(Element parent, String name) {
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

  /** The child elements of {@code parent}, none for null. */
  static List<Element> elements(Element parent) {
    List<Element> elements = new ArrayList<>();
    if (parent == null) {
      return elements;
    }
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        elements.add(element);
      }
    }
    return elements;
  }
}
