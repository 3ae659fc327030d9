package io.jxds.toolkit.internal.read;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One value of a JSON document, with where it is: its span in the text (so that a resource can be
 * handed to protobuf's JsonFormat as it was written) and the line it starts on (so that every
 * complaint names the line).
 *
 * <p>A deep object or array may be parsed lazily ({@link JsonText#parse}): its members or elements
 * are read from its span the first time they are asked for. The document was checked whole before,
 * so that never fails; a node reads the same either way.
 */
public final class JsonNode {
  /** What a value is. */
  public enum Kind {
    OBJECT,
    ARRAY,
    STRING,
    NUMBER,
    LITERAL
  }

  private final Kind kind;
  private final int start;
  private final int end;
  private final int line;
  private final @Nullable String string;
  /** The document's text while the children are still to read, else null. */
  private final char @Nullable [] lazyText;
  /** An object's members (a Map) or an array's elements (a List), once read. */
  private volatile @Nullable Object children;

  JsonNode(Kind kind, int start, int end, int line, @Nullable Object children, @Nullable String string,
      char @Nullable [] lazyText) {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.line = line;
    this.children = children;
    this.string = string;
    this.lazyText = lazyText;
  }

  /** What the value is. */
  public Kind kind() {
    return kind;
  }

  /** The offset of its first character. */
  public int start() {
    return start;
  }

  /** The offset after its last character. */
  public int end() {
    return end;
  }

  /** Its first line, from 1. */
  public int line() {
    return line;
  }

  /** A string's value (null otherwise). */
  public @Nullable String string() {
    return string;
  }

  /** An object's members in order (empty otherwise). */
  @SuppressWarnings("unchecked")
  public Map<String, JsonNode> members() {
    return kind == Kind.OBJECT ? (Map<String, JsonNode>) children() : Map.of();
  }

  /** An array's elements (empty otherwise). */
  @SuppressWarnings("unchecked")
  public List<JsonNode> elements() {
    return kind == Kind.ARRAY ? (List<JsonNode>) children() : List.of();
  }

  private Object children() {
    Object c = children;
    if (c == null) {
      c = JsonText.children(lazyText, this);
      children = c; // two threads reading it at once would each read the same
    }
    return c;
  }

  /** The member named by any of {@code names} (JSON field names, then proto3 JSON's lowerCamelCase). */
  public @Nullable JsonNode member(String... names) {
    Map<String, JsonNode> members = members();
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

  @Override
  public String toString() {
    return "JsonNode{" + kind + " at line " + line + ", [" + start + ", " + end + ")}";
  }
}
