package io.jxds.toolkit.internal.cli;

import io.jxds.toolkit.Fraction;
import java.math.BigDecimal;
import java.math.MathContext;

/** A small JSON writer for the CLI's documented output: objects, arrays, strings, numbers, null. */
final class Json {
  private final StringBuilder out = new StringBuilder();
  private final String indentUnit = "  ";
  private int depth;
  private boolean first = true;

  Json begin() {
    return open('{');
  }

  Json end() {
    return close('}');
  }

  Json beginArray(String name) {
    key(name);
    return open('[');
  }

  Json beginObject(String name) {
    key(name);
    return open('{');
  }

  /** An object as an element of the current array. */
  Json beginElement() {
    separator();
    return open('{');
  }

  Json endArray() {
    return close(']');
  }

  Json string(String name, String value) {
    key(name);
    quote(value);
    return this;
  }

  Json stringElement(String value) {
    separator();
    quote(value);
    return this;
  }

  Json number(String name, long value) {
    key(name);
    out.append(value);
    return this;
  }

  Json bool(String name, boolean value) {
    key(name);
    out.append(value);
    return this;
  }

  Json nullValue(String name) {
    key(name);
    out.append("null");
    return this;
  }

  /** {@code "name": 0.375, "nameExact": "3/8"}: the decimal to 12 significant digits, and the exact value. */
  Json fraction(String name, Fraction value) {
    key(name);
    out.append(decimal(value));
    key(name + "Exact");
    quote(value.toString());
    return this;
  }

  static String decimal(Fraction f) {
    BigDecimal d = new BigDecimal(f.numerator()).divide(new BigDecimal(f.denominator()), new MathContext(12));
    d = d.stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  private Json open(char c) {
    out.append(c);
    depth++;
    first = true;
    return this;
  }

  private Json close(char c) {
    depth--;
    if (!first) {
      newline();
    }
    out.append(c);
    first = false;
    return this;
  }

  private void key(String name) {
    separator();
    quote(name);
    out.append(": ");
  }

  private void separator() {
    if (!first) {
      out.append(',');
    }
    if (depth > 0) {
      newline();
    }
    first = false;
  }

  private void newline() {
    out.append('\n');
    out.append(indentUnit.repeat(depth));
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
