package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.Fraction;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The CLI's documented JSON output: objects, arrays, strings, numbers, null, and the two forms of a
 * {@link Fraction}. The text is byte for byte what Gson's {@code JsonWriter} with a two-space indent
 * writes (the format the golden files pin: {@code "name": value}, one member or element a line,
 * {@code []} and {@code {}} when empty, Gson's string escapes), written straight into a char buffer:
 * Gson's writer made a call per token and was a quarter of a large {@code check --json}.
 */
final class Json {
  private static final String[] ESCAPES = new String[128];
  private static final char[] SPACES = new char[256];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPES[c] = String.format(Locale.ROOT, "\\u%04x", c);
    }
    ESCAPES['"'] = "\\\"";
    ESCAPES['\\'] = "\\\\";
    ESCAPES['\t'] = "\\t";
    ESCAPES['\b'] = "\\b";
    ESCAPES['\n'] = "\\n";
    ESCAPES['\r'] = "\\r";
    ESCAPES['\f'] = "\\f";
    Arrays.fill(SPACES, ' ');
  }

  /** Where the text goes; null for a {@link #fragment}, which keeps it. */
  private final @Nullable Writer text;
  private char[] chars;
  private int size;
  /** Per open object or array (index = depth, 1 for the outermost): whether it has a member yet. */
  private boolean[] nonEmpty;
  private int depth;

  Json() {
    this(new StringWriter());
  }

  /** Writes to {@code text} as it goes (a large plan is not held twice); {@link #flush} at the end. */
  Json(Writer text) {
    this.text = text;
    this.chars = new char[1 << 16];
    this.nonEmpty = new boolean[16];
  }

  private Json(int depth, int sizeHint) {
    this.text = null;
    this.chars = new char[Math.max(sizeHint, 64)];
    this.depth = depth;
    this.nonEmpty = new boolean[depth + 16];
  }

  /** The text of an element written apart (on another thread), for {@link #element}. */
  record Fragment(char[] chars, int size) {}

  /**
   * A writer for one element of an array that is open at {@code depth} in another writer: what it
   * writes, {@link #fragment}, goes in with {@link #element} (the same text as written in place).
   * {@code sizeHint}: the chars it will likely take (it grows past them).
   */
  static Json fragment(int depth, int sizeHint) {
    return new Json(depth, sizeHint);
  }

  /** What this fragment writer wrote. */
  Fragment fragment() {
    return new Fragment(chars, size);
  }

  /** How deep the innermost open object or array is. */
  int depth() {
    return depth;
  }

  /** An element of the current array that a {@link #fragment} writer at this depth wrote. */
  Json element(Fragment element) {
    room(1);
    if (nonEmpty[depth]) {
      chars[size++] = ',';
    }
    nonEmpty[depth] = true;
    if (element.size() > chars.length - size) {
      flush();
      if (element.size() > chars.length) {
        write(element.chars(), element.size());
        return this;
      }
    }
    System.arraycopy(element.chars(), 0, chars, size, element.size());
    size += element.size();
    return this;
  }

  private void write(char[] c, int n) {
    try {
      text.write(c, 0, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Hands what is buffered to the writer. */
  Json flush() {
    try {
      drain();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter or PrintWriter does not throw
    }
    return this;
  }

  Json begin() {
    item();
    return open('{');
  }

  Json end() {
    return close('}');
  }

  Json beginArray(String name) {
    name(name);
    return open('[');
  }

  Json beginObject(String name) {
    name(name);
    return open('{');
  }

  /** An object as an element of the current array. */
  Json beginElement() {
    item();
    return open('{');
  }

  Json endArray() {
    return close(']');
  }

  Json string(String name, String value) {
    name(name);
    quoted(value);
    return this;
  }

  Json stringElement(String value) {
    item();
    quoted(value);
    return this;
  }

  Json number(String name, long value) {
    name(name);
    raw(Long.toString(value));
    return this;
  }

  Json bool(String name, boolean value) {
    name(name);
    raw(value ? "true" : "false");
    return this;
  }

  Json nullValue(String name) {
    name(name);
    raw("null");
    return this;
  }

  /** {@code "name": 0.375, "nameExact": "3/8"}: the decimal to 12 significant digits, and the exact value. */
  Json fraction(String name, Fraction value) {
    name(name);
    raw(decimal(value));
    name(name + "Exact");
    quoted(value.toString());
    return this;
  }

  static String decimal(Fraction f) {
    String fast = smallDecimal(f);
    return fast != null ? fast : bigDecimal(f);
  }

  /** The reference: {@code numerator / denominator} to 12 significant digits (HALF_UP), as plain text. */
  static String bigDecimal(Fraction f) {
    BigDecimal d = new BigDecimal(f.numerator()).divide(new BigDecimal(f.denominator()), new MathContext(12));
    d = d.stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  /**
   * {@link #bigDecimal}'s text by long division, for a fraction of magnitude at most 1 whose
   * denominator is below 2^59 (every round-robin share and drop rate; a plan has hundreds of thousands):
   * the same digits and the same HALF_UP rounding of the exact quotient; null for any other fraction.
   */
  static String smallDecimal(Fraction f) {
    if (f.denominator().bitLength() > 59 || f.numerator().bitLength() > 59) {
      return null;
    }
    long d = f.denominator().longValue();
    long n = f.numerator().longValue();
    long a = Math.abs(n);
    if (a > d) {
      return null;
    }
    if (a == 0) {
      return "0";
    }
    String sign = n < 0 ? "-" : "";
    if (a == d) {
      return sign + "1";
    }
    int zeros = 0; // zeros after the point before the first significant digit
    while (a * 10 < d) {
      a *= 10;
      zeros++;
    }
    char[] digits = new char[12];
    for (int i = 0; i < digits.length; i++) {
      a *= 10;
      digits[i] = (char) ('0' + a / d);
      a %= d;
    }
    if (2 * a >= d) { // HALF_UP: the rest is at least half of the last digit
      int i = digits.length - 1;
      while (i >= 0 && digits[i] == '9') {
        digits[i--] = '0';
      }
      if (i < 0) { // 0.0…0999…9 rounds up to 10^-zeros
        return zeros == 0 ? sign + "1" : sign + "0." + "0".repeat(zeros - 1) + "1";
      }
      digits[i]++;
    }
    int length = digits.length;
    while (digits[length - 1] == '0') {
      length--;
    }
    StringBuilder s = new StringBuilder(sign.length() + 2 + zeros + length).append(sign).append("0.");
    for (int i = 0; i < zeros; i++) {
      s.append('0');
    }
    return s.append(digits, 0, length).toString();
  }

  @Override
  public String toString() {
    flush();
    return text.toString();
  }

  /** Before a member's name or an element: the comma after the one before, a new line, the indent. */
  private void item() {
    if (depth == 0) {
      return; // the document's one value
    }
    room(2 + 2 * depth);
    if (nonEmpty[depth]) {
      chars[size++] = ',';
    }
    nonEmpty[depth] = true;
    newline(depth);
  }

  private void name(String name) {
    item();
    quoted(name);
    room(2);
    chars[size++] = ':';
    chars[size++] = ' ';
  }

  private Json open(char bracket) {
    room(1);
    chars[size++] = bracket;
    depth++;
    if (depth == nonEmpty.length) {
      nonEmpty = Arrays.copyOf(nonEmpty, depth * 2);
    }
    nonEmpty[depth] = false;
    return this;
  }

  private Json close(char bracket) {
    boolean any = nonEmpty[depth];
    depth--;
    room(2 + 2 * depth);
    if (any) {
      newline(depth);
    }
    chars[size++] = bracket;
    return this;
  }

  /** A new line and the indent of {@code level}; {@link #room} made space for it. */
  private void newline(int level) {
    chars[size++] = '\n';
    int spaces = 2 * level;
    while (spaces > 0) {
      int n = Math.min(spaces, SPACES.length);
      System.arraycopy(SPACES, 0, chars, size, n);
      size += n;
      spaces -= n;
    }
  }

  private void raw(String value) {
    room(value.length());
    value.getChars(0, value.length(), chars, size);
    size += value.length();
  }

  /** A string in quotes, with Gson's escapes: {@code " \\ } and control characters, U+2028 and U+2029. */
  private void quoted(String value) {
    int length = value.length();
    room(length + 2);
    chars[size++] = '"';
    int from = 0;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      String escape;
      if (c < 128) {
        escape = ESCAPES[c];
        if (escape == null) {
          continue;
        }
      } else if (c == '\u2028') {
        escape = "\\u2028";
      } else if (c == '\u2029') {
        escape = "\\u2029";
      } else {
        continue;
      }
      append(value, from, i);
      append(escape, 0, escape.length());
      from = i + 1;
    }
    append(value, from, length);
    room(1);
    chars[size++] = '"';
  }

  private void append(String s, int from, int to) {
    room(to - from);
    s.getChars(from, to, chars, size);
    size += to - from;
  }

  /**
   * Space for {@code n} more chars: what is buffered goes to the writer first (a fragment keeps it),
   * or the buffer grows.
   */
  private void room(int n) {
    if (size + n <= chars.length) {
      return;
    }
    if (text != null) {
      flush();
    }
    if (size + n > chars.length) {
      chars = Arrays.copyOf(chars, Math.max(size + n, chars.length * 2));
    }
  }

  private void drain() throws IOException {
    if (size > 0 && text != null) {
      text.write(chars, 0, size);
      size = 0;
    }
  }
}
