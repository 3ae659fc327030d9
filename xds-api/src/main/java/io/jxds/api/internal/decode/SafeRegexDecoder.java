package io.jxds.api.internal.decode;

import io.jxds.api.XdsResourceException;
import io.jxds.api.model.RegexMatcher;

/**
 * Compiles a {@code safe_regex} field (an envoy {@code type.matcher.v3.RegexMatcher}) once, when
 * its resource is decoded, into a {@link RegexMatcher}: RE2's syntax and linear-time matching, as
 * the xDS API promises. A regex RE2 refuses is a NACK naming the resource, the field and RE2's
 * error: {@code cluster "a": <path>.regex must be an RE2 regular expression, got "(a)\1"
 * (error parsing regexp: invalid escape sequence: `\1`)}. The {@code google_re2} engine field is
 * deprecated and read as what it says: RE2.
 */
public final class SafeRegexDecoder {
  private SafeRegexDecoder() {}

  /**
   * Compiles {@code field.regex}.
   *
   * @param field the {@code safe_regex} message
   * @param kind the resource's kind, as NACKs name it ({@code cluster})
   * @param name the resource's name
   * @param path the field's path in the resource, up to and including {@code safe_regex}
   * @return the compiled regex
   * @throws XdsResourceException when RE2 refuses the regex
   */
  public static RegexMatcher decode(
      io.envoyproxy.envoy.type.matcher.v3.RegexMatcher field, String kind, String name, String path)
      throws XdsResourceException {
    String regex = field.getRegex();
    try {
      return RegexMatcher.compile(regex);
    } catch (IllegalArgumentException e) {
      throw Nack.of(kind, name, path + ".regex must be an RE2 regular expression",
          Nack.quote(regex) + " (" + e.getMessage() + ")");
    }
  }
}
