package io.jxds.toolkit.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonText#parse} builds only the top of a document and reads deeper objects and arrays from
 * their spans when asked: every node reads as in a tree built whole (kind, span, line, string,
 * members in order with a repeated name's last value, elements), and the whole document is checked
 * and its {@code "@type"}s found at once.
 */
class JsonTextLazyTest {
  @Test
  void lazyTreesReadAsWholeTrees() throws Exception {
    SplittableRandom random = new SplittableRandom(25);
    for (int i = 0; i < 500; i++) {
      String text = value(random, 0);
      JsonNode lazy = JsonText.parse(text);
      JsonNode whole = JsonText.parseWhole(JsonText.parse(text));
      assertSame(lazy, whole, text);
    }
  }

  @Test
  void deepNodesKeepTheirLinesAndTypes() throws Exception {
    String text = "[{\"resources\": [\n  {\"@type\": \"t1\", \"a\": {\"b\": [\n    {\"@type\": \"t2\", \"c\": {\"d\":\n"
        + "      {\"@type\": \"t3\", \"e\": \"x\\ny\", \"e\": \"last\"}}}]}}]}]";
    List<JsonNode> types = new ArrayList<>();
    JsonNode root = JsonText.parse(text, types);
    assertThat(types).extracting(JsonNode::string).containsExactly("t1", "t2", "t3");
    assertThat(types).extracting(JsonNode::line).containsExactly(2, 3, 4);
    JsonNode d = root.elements().get(0).member("resources").elements().get(0).member("a").member("b").elements()
        .get(0).member("c").member("d");
    assertThat(d.line()).isEqualTo(4);
    assertThat(d.stringMember("e")).isEqualTo("last");
    assertThat(d.members().keySet()).containsExactly("@type", "e");
    assertThat(d.text()).isEqualTo("{\"@type\": \"t3\", \"e\": \"x\\ny\", \"e\": \"last\"}");
  }

  @Test
  void aTypeNameWrittenWithEscapesIsFoundDeepInside() throws Exception {
    String text = "[{\"a\": [{\"b\": {\"c\": {\"\\u0040type\": \"t1\", \"@typ\": \"no\", \"@types\": \"no\"}}}]}]";
    List<JsonNode> types = new ArrayList<>();
    JsonText.parse(text, types);
    assertThat(types).extracting(JsonNode::string).containsExactly("t1");
  }

  @Test
  void anErrorDeepInsideIsFoundAtOnce() {
    String text = "[{\"resources\": [{\"a\": {\"b\": {\"c\": [1,\n 2,\n 3 4]}}}]}]";
    assertThatThrownBy(() -> JsonText.parse(text)).isInstanceOf(JsonText.SyntaxError.class)
        .hasMessage("line 3, column 4: expected ',' or ']', got '4'");
  }

  private static void assertSame(JsonNode a, JsonNode b, String text) {
    Supplier<String> at = () -> text + " at " + b; // made only for a failure: a document is long
    assertThat(a.kind()).as(at).isEqualTo(b.kind());
    assertThat(a.start()).as(at).isEqualTo(b.start());
    assertThat(a.end()).as(at).isEqualTo(b.end());
    assertThat(a.line()).as(at).isEqualTo(b.line());
    assertThat(a.string()).as(at).isEqualTo(b.string());
    assertThat(a.members().keySet()).as(at).containsExactlyElementsOf(b.members().keySet());
    for (Map.Entry<String, JsonNode> m : b.members().entrySet()) {
      assertSame(a.members().get(m.getKey()), m.getValue(), text);
    }
    assertThat(a.elements()).as(at).hasSameSizeAs(b.elements());
    for (int i = 0; i < b.elements().size(); i++) {
      assertSame(a.elements().get(i), b.elements().get(i), text);
    }
  }

  private static String value(SplittableRandom random, int depth) {
    int kind = random.nextInt(depth > 7 ? 4 : 7);
    String space = random.nextInt(4) == 0 ? "\n " : " ";
    return switch (kind) {
      case 0 -> "\"s" + (random.nextBoolean() ? "\\n\\u00e9\\\"" : "") + random.nextInt(9) + "\"";
      case 1 -> String.valueOf(random.nextInt(2000) - 1000) + (random.nextBoolean() ? ".5e3" : "");
      case 2 -> random.nextBoolean() ? "true" : "null";
      case 3 -> "{}";
      case 4 -> {
        StringBuilder s = new StringBuilder("[");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          s.append(i == 0 ? "" : ",").append(space).append(value(random, depth + 1));
        }
        yield s.append(space).append(']').toString();
      }
      default -> {
        StringBuilder s = new StringBuilder("{");
        int n = random.nextInt(20);
        for (int i = 0; i < n; i++) {
          String name = random.nextInt(6) == 0 ? "@type" : "k" + random.nextInt(n + 2);
          s.append(i == 0 ? "" : ",").append(space).append('"').append(name).append("\": ")
              .append(value(random, depth + 1));
        }
        yield s.append(space).append('}').toString();
      }
    };
  }
}
