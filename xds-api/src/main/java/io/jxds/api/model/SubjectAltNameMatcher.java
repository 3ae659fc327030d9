package io.jxds.api.model;

import io.jxds.api.internal.IpAddressText;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a validation context's {@code match_subject_alt_names} (an envoy
 * {@code StringMatcher}): a server certificate is accepted when one of its subject alternative
 * names matches one of the cluster's matchers (gRFC A29).
 *
 * <p>An IP address is compared in its canonical text form (gRFC A29; RFC 5952 for IPv6): the
 * certificate's IP names are given to {@link #matches} in that form, and an {@code exact} value
 * that is an IP literal is read in it, so {@code exact: "2001:DB8:0::1"} matches the IP name
 * {@code 2001:db8::1}.
 *
 * <p>A DNS name and an {@code exact} value are also compared as DNS wildcards, one label wide
 * (see {@link #matches}). A {@code safe_regex} is compiled once, here, with RE2 (RE2/J): it runs in
 * time linear in the name's length, and what RE2 refuses (backreferences, lookaround, possessive
 * quantifiers) is refused.
 *
 * <p>Two matchers are equal when their kind, value and {@code ignore_case} are.
 */
public final class SubjectAltNameMatcher {
  private static final String ACE_PREFIX = "xn--"; // RFC 5890: an internationalized label's A-label form

  /** The {@code StringMatcher.match_pattern} cases gRPC supports. */
  public enum Kind {
    /** {@code exact}: the whole name, with one-label DNS wildcards (see {@link #matches}). */
    EXACT,
    /** {@code prefix}. */
    PREFIX,
    /** {@code suffix}. */
    SUFFIX,
    /** {@code contains}. */
    CONTAINS,
    /** {@code safe_regex}: the whole name must match, in RE2's syntax. */
    SAFE_REGEX
  }

  private final Kind kind;
  private final String pattern;
  private final boolean ignoreCase;
  private final @Nullable RegexMatcher regex; // for SAFE_REGEX

  /**
   * Checks the fields; a regex is compiled.
   *
   * @param kind the matcher kind
   * @param pattern the value (an IP literal {@code exact} value is kept in canonical form); a
   *     regex must be one RE2 accepts
   * @param ignoreCase whether case is ignored; not applied to {@link Kind#SAFE_REGEX}, as in envoy
   * @throws IllegalArgumentException if {@code pattern} is a regex RE2 refuses, with RE2's error
   */
  public SubjectAltNameMatcher(Kind kind, String pattern, boolean ignoreCase) {
    this.kind = Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(pattern, "pattern");
    this.pattern = kind == Kind.EXACT ? IpAddressText.canonical(pattern).orElse(pattern) : pattern;
    this.ignoreCase = ignoreCase;
    this.regex = kind == Kind.SAFE_REGEX ? RegexMatcher.compile(pattern) : null;
  }

  /**
   * A {@code safe_regex} matcher from a regex already compiled.
   *
   * @param regex the compiled regex
   * @return the matcher
   */
  public static SubjectAltNameMatcher safeRegex(RegexMatcher regex) {
    return new SubjectAltNameMatcher(regex);
  }

  private SubjectAltNameMatcher(RegexMatcher regex) {
    this.kind = Kind.SAFE_REGEX;
    this.pattern = regex.regex();
    this.ignoreCase = false;
    this.regex = regex;
  }

  /**
   * Which {@code match_pattern} field is set.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * That field's value (for {@link Kind#SAFE_REGEX}, the regex).
   *
   * @return the value
   */
  public String pattern() {
    return pattern;
  }

  /**
   * {@code ignore_case}.
   *
   * @return whether case is ignored
   */
  public boolean ignoreCase() {
    return ignoreCase;
  }

  /**
   * Whether {@code name} (one subject alternative name of a certificate) matches.
   *
   * <p>For a DNS name and an {@code exact} value that differ, a wildcard in the first label of
   * either one may stand for the first label of the other: the certificate's {@code *.example.com}
   * or {@code api-*.example.com} covers the value {@code api-1.example.com} (as envoy documents
   * {@code match_subject_alt_names}), and the value {@code api-*.example.com} accepts the
   * certificate's {@code api-1.example.com} (as grpc-java does). The rest of the two names must be
   * equal, the wildcard label holds one {@code *} (standing for any characters, none included),
   * and the other name's label must be real: without {@code *}, and not an internationalized
   * {@code xn--} label, whose letters a wildcard never stands for (RFC 6125, 6.4.3). A wildcard
   * label that is itself an {@code xn--} label is not a wildcard.
   *
   * @param name a DNS name, URI or e-mail address from the certificate, or an IP address in
   *     canonical text form
   * @param dnsName whether {@code name} is a DNS name
   * @return true when it matches
   */
  public boolean matches(String name, boolean dnsName) {
    RegexMatcher compiled = regex; // set exactly when the kind is SAFE_REGEX
    if (compiled != null) {
      return compiled.matches(name);
    }
    String value = ignoreCase ? name.toLowerCase(Locale.ROOT) : name;
    String p = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
    switch (kind) {
      case EXACT:
        return value.equals(p) || (dnsName && (wildcardMatches(value, p) || wildcardMatches(p, value)));
      case PREFIX:
        return value.startsWith(p);
      case SUFFIX:
        return value.endsWith(p);
      default:
        return value.contains(p);
    }
  }

  // "api-*.example.com" against "api-1.example.com": first labels by the wildcard, the rest equal.
  private static boolean wildcardMatches(String wildcard, String host) {
    int wildcardDot = wildcard.indexOf('.');
    int hostDot = host.indexOf('.');
    if (wildcardDot < 0 || hostDot < 0 || host.indexOf('*') >= 0) {
      return false;
    }
    String label = wildcard.substring(0, wildcardDot);
    String hostLabel = host.substring(0, hostDot);
    int star = label.indexOf('*');
    if (star < 0 || label.indexOf('*', star + 1) >= 0 || isALabel(label) || isALabel(hostLabel)
        || !wildcard.substring(wildcardDot).equals(host.substring(hostDot))) {
      return false;
    }
    String before = label.substring(0, star);
    String after = label.substring(star + 1);
    return !hostLabel.isEmpty() && hostLabel.length() >= before.length() + after.length()
        && hostLabel.startsWith(before) && hostLabel.endsWith(after);
  }

  private static boolean isALabel(String label) {
    return label.regionMatches(true, 0, ACE_PREFIX, 0, ACE_PREFIX.length());
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof SubjectAltNameMatcher other
        && kind == other.kind && pattern.equals(other.pattern) && ignoreCase == other.ignoreCase;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, pattern, ignoreCase);
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(Locale.ROOT) + " \"" + pattern + "\"" + (ignoreCase ? " (ignore_case)" : "");
  }
}
