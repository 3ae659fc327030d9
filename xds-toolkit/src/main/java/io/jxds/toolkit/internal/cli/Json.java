package io.jxds.toolkit.internal.cli;

import com.google.gson.stream.JsonWriter;
import io.jxds.toolkit.Fraction;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The CLI's documented JSON output, written with Gson's streaming {@link JsonWriter} (Gson comes
 * with protobuf-java-util, which reads the JSON inputs): objects, arrays, strings, numbers, null,
 * and the two forms of a {@link Fraction}.
 */
final class Json {
  private final Writer text;
  private final Buffer buffer;
  private final JsonWriter out;

  Json() {
    this(new StringWriter());
  }

  /** Writes to {@code text} as it goes (a large plan is not held twice); {@link #flush} at the end. */
  Json(Writer text) {
    this.text = text;
    this.buffer = new Buffer(text);
    this.out = new JsonWriter(buffer);
    out.setIndent("  ");
  }

  /** Hands what is buffered to the writer. */
  Json flush() {
    return write(buffer::drain);
  }

  Json begin() {
    return write(() -> out.beginObject());
  }

  Json end() {
    return write(() -> out.endObject());
  }

  Json beginArray(String name) {
    return write(() -> out.name(name).beginArray());
  }

  Json beginObject(String name) {
    return write(() -> out.name(name).beginObject());
  }

  /** An object as an element of the current array. */
  Json beginElement() {
    return write(() -> out.beginObject());
  }

  Json endArray() {
    return write(() -> out.endArray());
  }

  Json string(String name, String value) {
    return write(() -> out.name(name).value(value));
  }

  Json stringElement(String value) {
    return write(() -> out.value(value));
  }

  Json number(String name, long value) {
    return write(() -> out.name(name).value(value));
  }

  Json bool(String name, boolean value) {
    return write(() -> out.name(name).value(value));
  }

  Json nullValue(String name) {
    return write(() -> out.name(name).nullValue());
  }

  /** {@code "name": 0.375, "nameExact": "3/8"}: the decimal to 12 significant digits, and the exact value. */
  Json fraction(String name, Fraction value) {
    return write(() -> out.name(name).jsonValue(decimal(value)).name(name + "Exact").value(value.toString()));
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

  /**
   * Gson writes each token as its own call: gathered here without locks, and handed on in large
   * pieces (a PrintWriter and its BufferedWriter lock on every call).
   */
  private static final class Buffer extends Writer {
    private final Writer target;
    private final char[] chars = new char[1 << 16];
    private int size;

    Buffer(Writer target) {
      this.target = target;
    }

    @Override
    public void write(int c) throws IOException {
      if (size == chars.length) {
        drain();
      }
      chars[size++] = (char) c;
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
      if (len > chars.length - size) {
        drain();
        if (len > chars.length) {
          target.write(s, off, len);
          return;
        }
      }
      s.getChars(off, off + len, chars, size);
      size += len;
    }

    @Override
    public void write(char[] c, int off, int len) throws IOException {
      if (len > chars.length - size) {
        drain();
        if (len > chars.length) {
          target.write(c, off, len);
          return;
        }
      }
      System.arraycopy(c, off, chars, size, len);
      size += len;
    }

    void drain() throws IOException {
      if (size > 0) {
        target.write(chars, 0, size);
        size = 0;
      }
    }

    @Override
    public void flush() throws IOException {
      drain();
      target.flush();
    }

    @Override
    public void close() throws IOException {
      drain();
    }
  }

  private interface Step {
    void run() throws IOException;
  }

  private Json write(Step step) {
    try {
      step.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter or PrintWriter does not throw
    }
    return this;
  }
}
