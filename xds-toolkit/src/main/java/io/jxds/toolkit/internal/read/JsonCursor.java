package io.jxds.toolkit.internal.read;

import io.jxds.toolkit.internal.read.FastProtoReader.Unsupported;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A position in a JSON text that {@link JsonText} checked whole, read forward token by token
 * without building anything: objects and arrays member by member, strings (their UTF-8 bytes as
 * they are, or decoded), numbers, literals, and values skipped. A shape the proto writer leaves
 * to JsonFormat (escapes in a member name, an integer with a fraction...) is {@link Unsupported}.
 * One per thread, reused document after document ({@code FastProtoReader}).
 */
final class JsonCursor {
  /** The document being read; null between documents. */
  private byte @Nullable [] text;
  private int pos;
  /** Member names seen, each made once and interned (a small table by hash). */
  private final String[] names = new String[256];
  /** Short string values seen (enum names, type URLs), each made once. */
  private final String[] strings = new String[256];
  /** The UTF-8 bytes of each of {@link #names} and {@link #strings}, compared with the text's. */
  private final byte[][] nameBytes = new byte[256][];
  private final byte[][] stringBytes = new byte[256][];

  /** Reads {@code text} from {@code pos}. */
  void start(byte[] text, int pos) {
    this.text = text;
    this.pos = pos;
  }

  /** Lets the document go (the thread keeps the cursor's tables, not the text). */
  void finish() {
    text = null;
  }

  /** Whether the value at the position starts with {@code c}. */
  boolean at(char c) {
    return text[pos] == c;
  }

  /** Into the object at the position; not an object is {@link Unsupported}. */
  void openObject() throws Unsupported {
    open('{', "not an object");
  }

  /** Into the array at the position; not an array is {@link Unsupported}. */
  void openArray() throws Unsupported {
    open('[', "not an array");
  }

  private void open(char c, String otherwise) throws Unsupported {
    if (text[pos] != c) {
      throw new Unsupported(otherwise);
    }
    pos++;
    space();
  }

  /** Whether the object has another member; at its end, past it. */
  boolean hasMember() {
    return hasMore('}');
  }

  /** Whether the array has another element; at its end, past it. */
  boolean hasElement() {
    return hasMore(']');
  }

  private boolean hasMore(char close) {
    if (text[pos] == close) {
      pos++;
      return false;
    }
    return true;
  }

  /** The next member's name, interned, the position then at its value. */
  String memberName() throws Unsupported {
    String name = name();
    space();
    pos++; // ':'
    space();
    return name;
  }

  /** Past a member's or element's value: to the next one, or to the end of its object or array. */
  void next() {
    space();
    if (text[pos] == ',') {
      pos++;
      space();
    }
  }

  /** The object at the position's {@code "@type"} string (null without one), found without moving. */
  @Nullable String typeOfObject() throws Unsupported {
    int at = pos;
    openObject();
    String type = null;
    while (type == null && hasMember()) {
      if (!memberName().equals("@type")) {
        skipValue();
      } else if (text[pos] == '"') {
        type = string();
      } else {
        throw new Unsupported("@type not a string");
      }
      next();
    }
    pos = at;
    return type;
  }

  boolean bool() throws Unsupported {
    if (literal("true")) {
      pos += "true".length();
      return true;
    }
    if (literal("false")) {
      pos += "false".length();
      return false;
    }
    throw new Unsupported("not a boolean");
  }

  /** Whether the literal {@code word} (true, false, null) is at {@code pos}: checked JSON, its first letter tells. */
  boolean literal(String word) {
    return text[pos] == word.charAt(0);
  }

  /**
   * An integer written as digits, in a number or a string (proto3 JSON allows both); a string
   * with escapes, a fraction or an exponent is left to JsonFormat.
   */
  long integer(long min, long max) throws Unsupported {
    int from;
    int to;
    if (text[pos] == '"') {
      from = pos + 1;
      to = from;
      while (text[to] != '"') {
        to++;
      }
      pos = to + 1;
    } else if (text[pos] == '-' || (text[pos] >= '0' && text[pos] <= '9')) {
      from = pos;
      to = numberEnd();
      pos = to;
    } else {
      throw new Unsupported("not an integer");
    }
    int length = to - from;
    if (length == 0 || length > 19) {
      throw new Unsupported("not an integer");
    }
    boolean negative = text[from] == '-';
    if (negative && length == 1) {
      throw new Unsupported("not plain digits");
    }
    long value = 0;
    for (int i = negative ? from + 1 : from; i < to; i++) {
      byte c = text[i];
      if (c < '0' || c > '9') {
        throw new Unsupported("not plain digits");
      }
      value = value * 10 + (c - '0'); // at most 18 digits after a sign, or 19 that may overflow: checked below
      if (value < 0) {
        throw new Unsupported("out of range");
      }
    }
    value = negative ? -value : value;
    if (value < min || value > max) {
      throw new Unsupported("out of range");
    }
    return value;
  }

  double decimal() throws Unsupported {
    if (text[pos] != '-' && (text[pos] < '0' || text[pos] > '9')) {
      throw new Unsupported("not a number");
    }
    int from = pos;
    pos = numberEnd();
    return Double.parseDouble(new String(text, from, pos - from, StandardCharsets.ISO_8859_1));
  }

  /** After the number at {@code pos} (checked JSON: sign, digits, fraction, exponent). */
  private int numberEnd() {
    int i = pos;
    while (i < text.length) {
      byte c = text[i];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  /**
   * A string value, written to {@code out} as its length and UTF-8 bytes: without escapes, the text's own bytes
   * (UTF-8 that JsonText checked), with no String between. False, with nothing written, when it
   * is empty and {@code always} is false.
   */
  boolean writeString(WireOut out, boolean always) throws Unsupported {
    if (text[pos] != '"') {
      throw new Unsupported("not a string");
    }
    int from = pos + 1;
    int i = from;
    for (byte c = text[i]; c != '"'; c = text[++i]) {
      if (c == '\\') {
        out.string(string()); // escapes: decoded, then encoded
        return true;
      }
    }
    int length = i - from;
    pos = i + 1;
    if (length == 0 && !always) {
      return false;
    }
    out.raw(text, from, length);
    return true;
  }

  String requireString() throws Unsupported {
    if (text[pos] != '"') {
      throw new Unsupported("not a string");
    }
    return string();
  }

  /** A member name at {@code pos}, interned; a name with escapes is left to JsonFormat. */
  private String name() throws Unsupported {
    int from = pos + 1;
    int hash = 0;
    int i = from;
    for (byte c = text[i]; c != '"'; c = text[++i]) {
      if (c == '\\') {
        throw new Unsupported("escapes in a member name");
      }
      hash = 31 * hash + c;
    }
    pos = i + 1;
    return known(names, nameBytes, from, i - from, hash, true);
  }

  /** The string at {@code pos} (an opening quote), its escapes decoded. */
  String string() throws Unsupported {
    int from = pos + 1;
    int hash = 0;
    int i = from;
    for (byte c = text[i]; c != '"'; c = text[++i]) {
      if (c == '\\') {
        return decodeEscaped(from);
      }
      hash = 31 * hash + c;
    }
    pos = i + 1;
    // Short strings repeat (enum names, type URLs): each is made once.
    int length = i - from;
    return length <= 64 ? known(strings, stringBytes, from, length, hash, false)
        : new String(text, from, length, StandardCharsets.UTF_8);
  }

  /** The string from {@code from} to its closing quote, with escapes, decoded; {@code pos} after it. */
  private String decodeEscaped(int from) {
    StringBuilder decoded = new StringBuilder();
    int i = from;
    int run = from;
    while (text[i] != '"') {
      if (text[i] != '\\') {
        i++;
        continue;
      }
      decoded.append(new String(text, run, i - run, StandardCharsets.UTF_8));
      byte e = text[i + 1];
      i += 2;
      switch (e) {
        case 'b' -> decoded.append('\b');
        case 'f' -> decoded.append('\f');
        case 'n' -> decoded.append('\n');
        case 'r' -> decoded.append('\r');
        case 't' -> decoded.append('\t');
        case 'u' -> {
          decoded.append((char) Integer.parseInt(new String(text, i, 4, StandardCharsets.ISO_8859_1), 16));
          i += 4;
        }
        default -> decoded.append((char) e); // " \ /
      }
      run = i;
    }
    decoded.append(new String(text, run, i - run, StandardCharsets.UTF_8));
    pos = i + 1;
    return decoded.toString();
  }

  /**
   * The {@code length} bytes at {@code from} as a String made once per thread: a slot of
   * {@code table}, its bytes in {@code bytes}.
   */
  private String known(String[] table, byte[][] bytes, int from, int length, int hash, boolean intern) {
    int slot = (hash ^ (hash >>> 16)) & (table.length - 1);
    String s = table[slot];
    if (s == null || !sameAs(bytes[slot], from, length)) {
      s = new String(text, from, length, StandardCharsets.UTF_8);
      if (intern) {
        // Interned, as the field tables' names are: a lookup finds the same instance.
        s = s.intern();
      }
      table[slot] = s;
      bytes[slot] = Arrays.copyOfRange(text, from, from + length);
    }
    return s;
  }

  private boolean sameAs(byte[] known, int from, int length) {
    if (known.length != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (known[i] != text[from + i]) {
        return false;
      }
    }
    return true;
  }

  /** Past the value at {@code pos}. */
  void skipValue() {
    byte c = text[pos];
    if (c == '"') {
      pos++;
      while (text[pos] != '"') {
        pos += text[pos] == '\\' ? 2 : 1;
      }
      pos++;
    } else if (c == '{' || c == '[') {
      int nesting = 0;
      do {
        byte d = text[pos];
        if (d == '"') {
          skipValue();
          continue;
        }
        if (d == '{' || d == '[') {
          nesting++;
        } else if (d == '}' || d == ']') {
          nesting--;
        }
        pos++;
      } while (nesting > 0);
    } else {
      while (pos < text.length && !endsValue(text[pos])) {
        pos++;
      }
    }
  }

  private static boolean endsValue(byte c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private void space() {
    while (pos < text.length) {
      byte c = text[pos];
      if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
        return;
      }
      pos++;
    }
  }
}
