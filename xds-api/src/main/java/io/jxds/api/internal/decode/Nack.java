package io.jxds.api.internal.decode;

import io.jxds.api.XdsResourceException;

/**
 * Builds the one message format every decoder uses:
 * {@code <kind> "<name>": <field path> must <requirement>, got <value>}, so that an operator
 * reading a NACK's {@code error_detail} finds the resource and the field at once.
 */
final class Nack {
  private Nack() {}

  static XdsResourceException of(String kind, String name, String fieldMustBe, Object got) {
    return new XdsResourceException(
        nameOrNull(name), prefix(kind, name) + fieldMustBe + ", got " + got);
  }

  /** For a failure that is not a rule (a bug or a hostile input): never lets it escape unchecked. */
  static XdsResourceException unexpected(String kind, String name, RuntimeException e) {
    return new XdsResourceException(
        nameOrNull(name), prefix(kind, name) + "cannot be decoded: " + e, e);
  }

  static String quote(String s) {
    return "\"" + s + "\"";
  }

  private static String prefix(String kind, String name) {
    return kind + " " + quote(name == null ? "" : name) + ": ";
  }

  private static String nameOrNull(String name) {
    return name == null || name.isEmpty() ? null : name;
  }
}
