package io.jxds.toolkit.internal.read;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One value of a JSON document, with where it is: its span in the text (so that a resource can be
 * handed to protobuf's JsonFormat as it was written) and the line it starts on (so that every
 * complaint names the line).
 *
 * @param kind what the value is
 * @param start the offset of its first character
 * @param end the offset after its last character
 * @param line its first line, from 1
 * @param members an object's members in order (empty otherwise)
 * @param elements an array's elements (empty otherwise)
 * @param string a string's value (null otherwise)
 */
public record JsonNode(
    Kind kind, int start, int end, int line, Map<String, JsonNode> members, List<JsonNode> elements,
    @Nullable String string) {
  /** What a value is. */
  public enum Kind {
    OBJECT,
    ARRAY,
    STRING,
    NUMBER,
    LITERAL
  }

  /** The member named by any of {@code names} (JSON field names, then proto3 JSON's lowerCamelCase). */
  public @Nullable JsonNode member(String... names) {
    for (String name : names) {
      JsonNode n = members.get(name);
      if (n != null) {
        return n;
      }
    }
    return null;
  }

  /** A string member's value, or null when absent or not a string. */
  public @Nullable String stringMember(String... names) {
    JsonNode n = member(names);
    return n == null ? null : n.string();
  }

  /** The text of this value in {@code text}. */
  public String text(String text) {
    return text.substring(start, end);
  }

  public boolean isObject() {
    return kind == Kind.OBJECT;
  }

  public boolean isArray() {
    return kind == Kind.ARRAY;
  }
}
