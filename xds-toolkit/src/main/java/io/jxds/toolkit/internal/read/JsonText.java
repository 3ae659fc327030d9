package io.jxds.toolkit.internal.read;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A strict JSON parser (RFC 8259) over the document's UTF-8 bytes (as read from a file: no
 * characters are made but for the strings a tree holds) that keeps each value's span and line, for
 * error messages that name the line and column; malformed UTF-8 in a string is an error too.
 * JsonFormat, which turns a resource's text into its proto, reports no position; this parser finds
 * the resources and their lines first.
 *
 * <p>{@link #parse} checks the whole document but builds nodes only near its root (where documents
 * hold their resources): an object or array deeper than {@link #EAGER_DEPTH} is a lazy node, read
 * from its span when asked ({@link JsonNode#members}); a resource's proto is written from its text
 * ({@code FastProtoReader}). A large document is then never held as one tree of millions of nodes,
 * which the collector would copy again and again.
 */
public final class JsonText {
  /** Malformed JSON, at a line and column. */
  public static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;
    private final int line;
    private final boolean notUtf8;

    SyntaxError(int line, int column, String message, boolean notUtf8) {
      super("line " + line + ", column " + column + ": " + message);
      this.line = line;
      this.notUtf8 = notUtf8;
    }

    public int line() {
      return line;
    }

    /** Whether the text is not UTF-8 there (rather than not JSON). */
    public boolean notUtf8() {
      return notUtf8;
    }
  }

  private static final int MAX_DEPTH = 512;
  /**
   * Objects and arrays at this depth or deeper are lazy after {@link #parse}: a DiscoveryResponse in
   * an array holds its resources at depth 3, and each resource's own members are built.
   */
  static final int EAGER_DEPTH = 4;

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  /** The document's UTF-8 bytes. */
  private final byte[] text;
  private final int length;
  private final @Nullable List<JsonNode> typeValues;
  private final int lazyDepth;
  private final String[] keys = new String[256];
  /** Each of {@link #keys} as bytes, compared with the text. */
  private final byte[][] keyBytes = new byte[256][];
  private int pos;
  private int line = 1;
  private int lineStart;

  private JsonText(byte[] text, @Nullable List<JsonNode> typeValues, int lazyDepth) {
    this.text = text;
    this.length = text.length;
    this.typeValues = typeValues;
    this.lazyDepth = lazyDepth;
  }

  /** Parses one JSON document. */
  public static JsonNode parse(String text) throws SyntaxError {
    return parse(text, new ArrayList<>());
  }

  /**
   * Parses one JSON document, adding to {@code typeValues} every string value of a member named
   * {@code "@type"} (proto3 JSON's {@code Any} type URLs, lazy parts included), so that nobody walks
   * the tree for them.
   */
  public static JsonNode parse(String text, List<JsonNode> typeValues) throws SyntaxError {
    return parse(text.getBytes(StandardCharsets.UTF_8), typeValues);
  }

  /** {@link #parse(String, List)} of a text's UTF-8 bytes (kept by the nodes: do not change them). */
  public static JsonNode parse(byte[] text, List<JsonNode> typeValues) throws SyntaxError {
    JsonText p = new JsonText(text, typeValues, EAGER_DEPTH);
    if (text.length >= 3 && text[0] == (byte) 0xEF && text[1] == (byte) 0xBB && text[2] == (byte) 0xBF) {
      p.pos = 3; // a byte order mark
    }
    p.skipSpace();
    if (p.pos >= text.length) {
      throw p.error("empty document");
    }
    JsonNode root = p.value(0, true);
    p.skipSpace();
    if (p.pos < text.length) {
      throw p.error("unexpected " + p.describe() + " after the document");
    }
    return root;
  }

  /** A value of a document {@link #parse} read, built whole (no lazy node in it): what a lazy tree reads as. */
  static JsonNode parseWhole(JsonNode value) {
    return reparse(value.document(), value, Integer.MAX_VALUE);
  }

  /** A lazy node's members (a Map) or elements (a List), each object or array among them lazy. */
  static Object children(JsonNode node) {
    JsonNode built = reparse(node.document(), node, 1);
    return built.kind() == JsonNode.Kind.OBJECT ? built.members() : built.elements();
  }

  private static JsonNode reparse(byte[] text, JsonNode value, int lazyDepth) {
    JsonText p = new JsonText(text, null, lazyDepth);
    p.pos = value.start();
    p.line = value.line();
    try {
      return p.value(0, true);
    } catch (SyntaxError e) {
      throw new IllegalStateException("a span parse checked before failed", e);
    }
  }

  /**
   * One value at {@code pos}; when {@code build} is false it is only checked (and null returned), and
   * an object or array at {@link #lazyDepth} or deeper is checked and returned as a lazy node.
   */
  private @Nullable JsonNode value(int depth, boolean build) throws SyntaxError {
    if (depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
    byte c = text[pos];
    int start = pos;
    int startLine = line;
    switch (c) {
      case '{':
      case '[':
        boolean whole = build && depth < lazyDepth;
        Object children = c == '{' ? object(depth, whole) : array(depth, whole);
        if (!build) {
          return null;
        }
        return new JsonNode(c == '{' ? JsonNode.Kind.OBJECT : JsonNode.Kind.ARRAY, start, pos, startLine, children,
            null, text, !whole);
      case '"':
        String s = string(build);
        return build ? new JsonNode(JsonNode.Kind.STRING, start, pos, startLine, null, s, text, false) : null;
      case 't':
        return literal(TRUE, start, startLine, build);
      case 'f':
        return literal(FALSE, start, startLine, build);
      case 'n':
        return literal(NULL, start, startLine, build);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          number();
          return build ? new JsonNode(JsonNode.Kind.NUMBER, start, pos, startLine, null, null, text, false) : null;
        }
        throw error("unexpected " + describe());
    }
  }

  /** An object's members, or null when not {@code build}ing (an {@code "@type"} string is kept anyway). */
  private @Nullable Members object(int depth, boolean build) throws SyntaxError {
    pos++;
    Members members = build ? new Members() : null;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return members;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name in quotes, got " + describe());
      }
      String name = build ? key() : null;
      boolean type = build ? typeValues != null && name.equals("@type") : skippedKeyIsType() && typeValues != null;
      skipSpace();
      expect(':');
      skipSpace();
      requireMore();
      JsonNode value = value(depth + 1, build || type);
      if (type && value.kind() == JsonNode.Kind.STRING) {
        typeValues.add(value);
      }
      if (build) {
        members.add(name, value);
      }
      skipSpace();
      byte c = peek();
      pos++;
      if (c == '}') {
        return members;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}', got " + describe());
      }
    }
  }

  /** An array's elements, or null when not {@code build}ing. */
  private @Nullable List<JsonNode> array(int depth, boolean build) throws SyntaxError {
    pos++;
    List<JsonNode> elements = build ? new ArrayList<>() : null;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return elements;
    }
    while (true) {
      skipSpace();
      requireMore();
      JsonNode element = value(depth + 1, build);
      if (build) {
        elements.add(element);
      }
      skipSpace();
      byte c = peek();
      pos++;
      if (c == ']') {
        return elements;
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
    while (i < length) {
      byte c = text[i];
      if (c == '"') {
        break;
      }
      if (c == '\\' || c < 0x20) { // escapes, control characters, and beyond ASCII (a negative byte)
        return string(true);
      }
      hash = 31 * hash + c;
      i++;
    }
    if (i >= length) {
      return string(true); // unterminated: string() says so
    }
    int slot = (hash ^ (hash >>> 16)) & (keys.length - 1);
    String known = keys[slot];
    if (known == null || !matches(keyBytes[slot], from, i - from)) {
      // Interned, as the proto readers' field names are: a lookup of a member name then finds the
      // same instance and String.equals returns at once instead of comparing the characters.
      known = new String(text, from, i - from, StandardCharsets.ISO_8859_1).intern();
      keys[slot] = known;
      keyBytes[slot] = Arrays.copyOfRange(text, from, i);
    }
    pos = i + 1;
    return known;
  }

  /** Checks a member name without making it; whether it is {@code "@type"}. */
  private boolean skippedKeyIsType() throws SyntaxError {
    int from = pos + 1;
    for (int i = from; i < length; i++) {
      byte c = text[i];
      if (c == '"') {
        pos = i + 1;
        return i - from == 5 && text[from] == '@' && text[from + 1] == 't' && text[from + 2] == 'y'
            && text[from + 3] == 'p' && text[from + 4] == 'e';
      }
      if (c == '\\' || c < 0x20) {
        return "@type".equals(string(true)); // escapes or beyond ASCII: read as any string
      }
    }
    string(true); // unterminated: string() says so
    return false;
  }

  /** A string's value, or null when not {@code build}ing (it is checked all the same, UTF-8 included). */
  private @Nullable String string(boolean build) throws SyntaxError {
    pos++; // the opening quote
    StringBuilder out = null;
    int from = pos;
    boolean ascii = true;
    while (true) {
      if (pos >= length) {
        throw error("unterminated string");
      }
      byte c = text[pos];
      if (c == '"') {
        String s = !build ? null
            : out == null ? decode(from, pos, ascii) : out.append(decode(from, pos, ascii)).toString();
        pos++;
        return s;
      }
      if (c < 0) {
        pos += utf8Sequence();
        ascii = false;
        continue;
      }
      if (c < 0x20) {
        throw error("control character in a string (write it as an escape)");
      }
      if (c == '\\') {
        if (out == null) {
          out = new StringBuilder();
        }
        out.append(decode(from, pos, ascii));
        pos++;
        requireMore();
        byte e = text[pos++];
        switch (e) {
          case '"', '\\', '/' -> out.append((char) e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (pos + 4 > length) {
              throw error("short \\u escape");
            }
            try {
              out.append((char) Integer.parseInt(new String(text, pos, 4, StandardCharsets.ISO_8859_1), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            pos += 4;
          }
          default -> {
            pos--;
            throw error("bad escape \\" + characterAt(pos));
          }
        }
        from = pos;
      } else {
        pos++;
      }
    }
  }

  /** The text's bytes {@code [from, to)} as characters. */
  private String decode(int from, int to, boolean ascii) {
    return new String(text, from, to - from, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /**
   * The length of the UTF-8 sequence of one character at {@code pos} (a byte beyond ASCII), checked
   * as Java's strict decoder checks it: no stray or missing continuation bytes, no overlong form, no
   * surrogate, nothing beyond U+10FFFF.
   */
  private int utf8Sequence() throws SyntaxError {
    int b0 = text[pos] & 0xFF;
    int count;
    int min;
    int max = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      count = 2;
      min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      count = 3;
      min = b0 == 0xE0 ? 0xA0 : 0x80;
      max = b0 == 0xED ? 0x9F : 0xBF;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      count = 4;
      min = b0 == 0xF0 ? 0x90 : 0x80;
      max = b0 == 0xF4 ? 0x8F : 0xBF;
    } else {
      throw notUtf8();
    }
    if (pos + count > length) {
      throw notUtf8();
    }
    int b1 = text[pos + 1] & 0xFF;
    if (b1 < min || b1 > max) {
      throw notUtf8();
    }
    for (int i = 2; i < count; i++) {
      int b = text[pos + i] & 0xFF;
      if (b < 0x80 || b > 0xBF) {
        throw notUtf8();
      }
    }
    return count;
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

  /** Whether the {@code count} bytes at {@code from} are {@code s}. */
  private boolean matches(byte[] s, int from, int count) {
    if (s.length != count || from + count > length) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      if (text[from + i] != s[i]) {
        return false;
      }
    }
    return true;
  }

  private void digits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private @Nullable JsonNode literal(byte[] word, int start, int startLine, boolean build) throws SyntaxError {
    if (!matches(word, pos, word.length)) {
      throw error("unexpected " + describe());
    }
    pos += word.length;
    return build ? new JsonNode(JsonNode.Kind.LITERAL, start, pos, startLine, null, null, text, false) : null;
  }

  private void skipSpace() {
    while (pos < length) {
      byte c = text[pos];
      if (c == '\n') {
        line++;
        lineStart = pos + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private byte peek() {
    return pos < length ? text[pos] : 0;
  }

  private void requireMore() throws SyntaxError {
    if (pos >= length) {
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
    if (pos >= length) {
      return "the end of the document";
    }
    byte c = text[pos];
    return c >= 0 && c < 0x20 ? String.format("character 0x%02x", (int) c) : "'" + characterAt(pos) + "'";
  }

  /** The character whose UTF-8 starts at {@code at} (U+FFFD when it is not UTF-8). */
  private String characterAt(int at) {
    if (text[at] >= 0) {
      return String.valueOf((char) text[at]);
    }
    String s = new String(text, at, Math.min(4, length - at), StandardCharsets.UTF_8);
    return s.substring(0, Character.charCount(s.codePointAt(0)));
  }

  private SyntaxError error(String message) {
    return new SyntaxError(line, column(), message, false);
  }

  private SyntaxError notUtf8() {
    return new SyntaxError(line, column(), "not UTF-8", true);
  }

  /** The column of {@code pos}, from 1, in characters (a character beyond ASCII is several bytes). */
  private int column() {
    int end = Math.min(pos, length);
    return new String(text, lineStart, end - lineStart, StandardCharsets.UTF_8).length() + 1;
  }
}
