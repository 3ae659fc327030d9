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
  private final JsonWriter out;

  Json() {
    this(new StringWriter());
  }

  /** Writes to {@code text} as it goes (a large plan is not held twice). */
  Json(Writer text) {
    this.text = text;
    this.out = new JsonWriter(text);
    out.setIndent("  ");
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
    BigDecimal d = new BigDecimal(f.numerator()).divide(new BigDecimal(f.denominator()), new MathContext(12));
    d = d.stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  @Override
  public String toString() {
    return text.toString();
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
