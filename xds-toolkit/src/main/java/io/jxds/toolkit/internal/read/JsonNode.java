package io.jxds.toolkit.internal.read;

import java.nio.charset.StandardCharsets;
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
  /** The document's UTF-8 bytes, which the span indexes. */
  private final byte[] document;
  /** An object's members (a Map) or an array's elements (a List), once read; null while still to read. */
  private volatile @Nullable Object children;

  JsonNode(Kind kind, int start, int end, int line, @Nullable Object children, @Nullable String string,
      byte[] document, boolean lazy) {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.line = line;
    this.children = lazy ? null : children;
    this.string = string;
    this.document = document;
  }

  /** What the value is. */
  public Kind kind() {
    return kind;
  }

  /** The offset of its first byte in the document's UTF-8. */
  public int start() {
    return start;
  }

  /** The offset after its last byte. */
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
      c = JsonText.children(this);
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

  /** This value's JSON text, as written. */
  public String text() {
    return new String(document, start, end - start, StandardCharsets.UTF_8);
  }

  /** The document's UTF-8 bytes (its span indexes them). */
  byte[] document() {
    return document;
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
