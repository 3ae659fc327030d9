package io.jxds.toolkit.internal.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) that keeps each value's span and line, for error messages that
 * name the line. JsonFormat, which turns a resource's text into its proto, reports no position;
 * this parser finds the resources and their lines first.
 */
public final class JsonText {
  /** Malformed JSON, at a line and column. */
  public static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;
    private final int line;

    SyntaxError(int line, int column, String message) {
      super("line " + line + ", column " + column + ": " + message);
      this.line = line;
    }

    public int line() {
      return line;
    }
  }

  private static final int MAX_DEPTH = 512;

  private final String text;
  private final List<JsonNode> typeValues;
  private final String[] keys = new String[256];
  private int pos;
  private int line = 1;
  private int lineStart;

  private JsonText(String text, List<JsonNode> typeValues) {
    this.text = text;
    this.typeValues = typeValues;
  }

  /** Parses one JSON document. */
  public static JsonNode parse(String text) throws SyntaxError {
    return parse(text, new ArrayList<>());
  }

  /**
   * Parses one JSON document, adding to {@code typeValues} every string value of a member named
   * {@code "@type"} (proto3 JSON's {@code Any} type URLs), so that nobody walks the tree for them.
   */
  public static JsonNode parse(String text, List<JsonNode> typeValues) throws SyntaxError {
    JsonText p = new JsonText(text, typeValues);
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
      p.pos = 1; // a byte order mark
    }
    p.skipSpace();
    if (p.pos >= text.length()) {
      throw p.error("empty document");
    }
    JsonNode root = p.value(0);
    p.skipSpace();
    if (p.pos < text.length()) {
      throw p.error("unexpected " + p.describe() + " after the document");
    }
    return root;
  }

  private JsonNode value(int depth) throws SyntaxError {
    if (depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
    char c = text.charAt(pos);
    int start = pos;
    int startLine = line;
    switch (c) {
      case '{':
        return object(start, startLine, depth);
      case '[':
        return array(start, startLine, depth);
      case '"':
        String s = string();
        return new JsonNode(JsonNode.Kind.STRING, start, pos, startLine, Map.of(), List.of(), s);
      case 't':
        return literal("true", start, startLine);
      case 'f':
        return literal("false", start, startLine);
      case 'n':
        return literal("null", start, startLine);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          number();
          return new JsonNode(JsonNode.Kind.NUMBER, start, pos, startLine, Map.of(), List.of(), null);
        }
        throw error("unexpected " + describe());
    }
  }

  private JsonNode object(int start, int startLine, int depth) throws SyntaxError {
    pos++;
    Members small = new Members();
    Map<String, JsonNode> members = small;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return new JsonNode(JsonNode.Kind.OBJECT, start, pos, startLine, members, List.of(), null);
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name in quotes, got " + describe());
      }
      String name = key();
      skipSpace();
      expect(':');
      skipSpace();
      requireMore();
      JsonNode value = value(depth + 1);
      if (members != small) {
        members.put(name, value);
      } else if (!small.add(name, value)) {
        members = new LinkedHashMap<>(small);
        members.put(name, value);
      }
      if (value.kind() == JsonNode.Kind.STRING && name.equals("@type")) {
        typeValues.add(value);
      }
      skipSpace();
      char c = peek();
      pos++;
      if (c == '}') {
        return new JsonNode(JsonNode.Kind.OBJECT, start, pos, startLine, members, List.of(), null);
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}', got " + describe());
      }
    }
  }

  private JsonNode array(int start, int startLine, int depth) throws SyntaxError {
    pos++;
    List<JsonNode> elements = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      return new JsonNode(JsonNode.Kind.ARRAY, start, pos, startLine, Map.of(), elements, null);
    }
    while (true) {
      skipSpace();
      requireMore();
      elements.add(value(depth + 1));
      skipSpace();
      char c = peek();
      pos++;
      if (c == ']') {
        return new JsonNode(JsonNode.Kind.ARRAY, start, pos, startLine, Map.of(), elements, null);
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or ']', got " + describe());
      }
    }
  }

  /**
   * A member name: the same few names repeat through a document, so each is made once (a small table
   * by hash) and shared; a name with escapes is read as any string.
   */
  private String key() throws SyntaxError {
    int from = pos + 1;
    int hash = 0;
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"') {
        break;
      }
      if (c == '\\' || c < 0x20) {
        return string();
      }
      hash = 31 * hash + c;
      i++;
    }
    if (i >= text.length()) {
      return string(); // unterminated: string() says so
    }
    int length = i - from;
    int slot = (hash ^ (hash >>> 16)) & (keys.length - 1);
    String known = keys[slot];
    if (known == null || known.length() != length || !text.regionMatches(from, known, 0, length)) {
      known = text.substring(from, i);
      keys[slot] = known;
    }
    pos = i + 1;
    return known;
  }

  private String string() throws SyntaxError {
    pos++; // the opening quote
    StringBuilder out = null;
    int from = pos;
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        String s = out == null ? text.substring(from, pos) : out.append(text, from, pos).toString();
        pos++;
        return s;
      }
      if (c < 0x20) {
        throw error("control character in a string (write it as an escape)");
      }
      if (c == '\\') {
        if (out == null) {
          out = new StringBuilder();
        }
        out.append(text, from, pos);
        pos++;
        requireMore();
        char e = text.charAt(pos++);
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (pos + 4 > text.length()) {
              throw error("short \\u escape");
            }
            try {
              out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            pos += 4;
          }
          default -> {
            pos--;
            throw error("bad escape \\" + e);
          }
        }
        from = pos;
      } else {
        pos++;
      }
    }
  }

  private void number() throws SyntaxError {
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (isDigit(peek())) {
      digits();
    } else {
      throw error("expected a digit, got " + describe());
    }
    if (peek() == '.') {
      pos++;
      if (!isDigit(peek())) {
        throw error("expected a digit after '.', got " + describe());
      }
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!isDigit(peek())) {
        throw error("expected an exponent, got " + describe());
      }
      digits();
    }
  }

  private void digits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private JsonNode literal(String word, int start, int startLine) throws SyntaxError {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected " + describe());
    }
    pos += word.length();
    return new JsonNode(JsonNode.Kind.LITERAL, start, pos, startLine, Map.of(), List.of(), null);
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\n') {
        line++;
        lineStart = pos + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void requireMore() throws SyntaxError {
    if (pos >= text.length()) {
      throw error("unexpected end of the document");
    }
  }

  private void expect(char c) throws SyntaxError {
    if (peek() != c) {
      throw error("expected '" + c + "', got " + describe());
    }
    pos++;
  }

  private String describe() {
    if (pos >= text.length()) {
      return "the end of the document";
    }
    char c = text.charAt(pos);
    return c < 0x20 ? String.format("character 0x%02x", (int) c) : "'" + c + "'";
  }

  private SyntaxError error(String message) {
    return new SyntaxError(line, pos - lineStart + 1, message);
  }
}
