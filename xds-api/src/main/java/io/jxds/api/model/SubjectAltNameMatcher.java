package io.jxds.api.model;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One entry of a validation context's {@code match_subject_alt_names} (an envoy
 * {@code StringMatcher}): a server certificate is accepted when one of its subject alternative
 * names matches one of the cluster's matchers (gRFC A29).
 *
 * @param kind which of the matcher's {@code match_pattern} fields is set
 * @param pattern that field's value (for {@link Kind#SAFE_REGEX}, the regex)
 * @param ignoreCase {@code ignore_case}; not applied to {@link Kind#SAFE_REGEX}, as in envoy
 */
public record SubjectAltNameMatcher(Kind kind, String pattern, boolean ignoreCase) {
  /** The {@code StringMatcher.match_pattern} cases gRPC supports. */
  public enum Kind {
    /** {@code exact}: the whole name; a DNS name {@code *.example.com} in a certificate matches one label. */
    EXACT,
    /** {@code prefix}. */
    PREFIX,
    /** {@code suffix}. */
    SUFFIX,
    /** {@code contains}. */
    CONTAINS,
    /** {@code safe_regex}: the whole name must match (RE2 syntax, read as a Java regex). */
    SAFE_REGEX
  }

  /**
   * Checks the fields.
   *
   * @param kind the matcher kind
   * @param pattern the value; a regex must compile
   * @param ignoreCase whether case is ignored
   * @throws IllegalArgumentException if {@code pattern} is a regex that does not compile
   */
  public SubjectAltNameMatcher {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(pattern, "pattern");
    if (kind == Kind.SAFE_REGEX) {
      try {
        Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("safe_regex does not compile: " + e.getDescription(), e);
      }
    }
  }

  /**
   * Whether {@code name} (one subject alternative name of a certificate) matches.
   *
   * @param name a DNS name, URI, IP address or e-mail address from the certificate
   * @param dnsName whether {@code name} is a DNS name, whose leading {@code *.} label is a wildcard
   * @return true when it matches
   */
  public boolean matches(String name, boolean dnsName) {
    if (kind == Kind.SAFE_REGEX) {
      return Pattern.compile(pattern).matcher(name).matches();
    }
    String value = ignoreCase ? name.toLowerCase(Locale.ROOT) : name;
    String p = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
    switch (kind) {
      case EXACT:
        return value.equals(p) || (dnsName && wildcardMatches(value, p));
      case PREFIX:
        return value.startsWith(p);
      case SUFFIX:
        return value.endsWith(p);
      default:
        return value.contains(p);
    }
  }

  // A certificate's "*.example.com" stands for exactly one label: "a.example.com", not "a.b.example.com".
  private static boolean wildcardMatches(String certName, String expected) {
    if (!certName.startsWith("*.") || certName.length() < 3) {
      return false;
    }
    int dot = expected.indexOf('.');
    return dot > 0 && expected.substring(dot).equals(certName.substring(1));
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(Locale.ROOT) + " \"" + pattern + "\"" + (ignoreCase ? " (ignore_case)" : "");
  }
}
