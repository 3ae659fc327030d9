package io.jxds.api.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jxds.api.model.SubjectAltNameMatcher.Kind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * gRFC A29's {@code match_subject_alt_names}: IP addresses compared in canonical text form, DNS
 * wildcards label by label, and {@code safe_regex} with RE2's syntax and linear-time matching.
 */
class SubjectAltNameMatcherTest {
  @Test
  void exactIpMatcherIsReadInCanonicalForm() {
    SubjectAltNameMatcher m = exact("2001:DB8:0:0:0:0:0:1");

    assertThat(m.pattern()).isEqualTo("2001:db8::1");
    assertThat(m.matches("2001:db8::1", false)).isTrue();
    assertThat(exact("::ffff:10.0.0.1").matches("10.0.0.1", false)).isTrue();
    assertThat(exact("010.0.0.1").pattern()).as("not an IP literal: kept as written").isEqualTo("010.0.0.1");
  }

  @Test
  void partialLabelWildcardInACertificateNameStandsForPartOfOneLabel() {
    assertThat(exact("api-1.example.com").matches("api-*.example.com", true)).isTrue();
    assertThat(exact("v2-api.example.com").matches("*-api.example.com", true)).isTrue();
    assertThat(exact("api-.example.com").matches("api-*.example.com", true)).as("* may stand for nothing").isTrue();
    assertThat(exact("web-1.example.com").matches("api-*.example.com", true)).isFalse();
    assertThat(exact("api-1.b.example.com").matches("api-*.example.com", true)).isFalse();
    assertThat(exact("a1b2.example.com").matches("a*b*.example.com", true)).as("two wildcards").isFalse();
    assertThat(exact("a.b.example.com").matches("a.*.example.com", true)).as("only the first label").isFalse();
    assertThat(exact("example.com").matches("*.com", true)).isTrue();
    assertThat(exact("com").matches("*", true)).as("a wildcard needs a label after it").isFalse();
  }

  @Test
  void wildcardNeverStandsForAnInternationalizedLabel() {
    assertThat(exact("xn--bcher-kva.example.com").matches("*.example.com", true)).isFalse();
    assertThat(exact("XN--bcher-kva.example.com").matches("*.example.com", true)).isFalse();
    assertThat(exact("xn--bcher-kva.example.com").matches("xn--*.example.com", true)).isFalse();
    assertThat(exact("xn--bcher-kva.example.com").matches("xn--bcher-kva.example.com", true)).isTrue();
    assertThat(exact("shop.xn--bcher-kva.example").matches("*.xn--bcher-kva.example", true)).isTrue();
  }

  @Test
  void wildcardInTheExactMatcherMatchesCertificateNamesAsGrpcJavaDoes() {
    assertThat(exact("*.example.com").matches("api.example.com", true)).isTrue();
    assertThat(exact("api-*.example.com").matches("api-7.example.com", true)).isTrue();
    assertThat(exact("*.example.com").matches("a.b.example.com", true)).isFalse();
    assertThat(exact("*.example.com").matches("xn--bcher-kva.example.com", true)).isFalse();
    assertThat(exact("a*.example.com").matches("*.example.com", true)).as("two patterns never match").isFalse();
    assertThat(exact("*.example.com").matches("*.example.com", true)).as("the same text does").isTrue();
    assertThat(exact("*.example.com").matches("api.example.com", false)).as("DNS names only").isFalse();
  }

  @Test
  void wildcardComparisonFollowsIgnoreCase() {
    assertThat(exact("API-1.Example.com").matches("api-*.example.com", true)).isFalse();
    assertThat(new SubjectAltNameMatcher(Kind.EXACT, "API-1.Example.com", true).matches("api-*.example.com", true))
        .isTrue();
  }

  @Test
  void safeRegexMatchesAPathologicalInputInLinearTime() {
    SubjectAltNameMatcher m = new SubjectAltNameMatcher(Kind.SAFE_REGEX, "(a+)+$", false);
    String input = "a".repeat(100_000) + "!";

    // A backtracking engine takes exponential time here; RE2 is linear in the input.
    boolean matched = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> m.matches(input, false));

    assertThat(matched).isFalse();
    assertThat(m.matches("a".repeat(100_000), false)).isTrue();
  }

  @Test
  void safeRegexRejectsWhatRe2Rejects() {
    assertThatThrownBy(() -> regex("(a)\\1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid escape sequence");
    assertThatThrownBy(() -> regex("a(?=b)")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid or unsupported Perl syntax");
    assertThatThrownBy(() -> regex("a++")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid nested repetition operator");
  }

  @Test
  void safeRegexUsesRe2Syntax() {
    assertThat(regex("[[:alpha:]]+\\.example\\.com").matches("api.example.com", true)).isTrue();
    assertThat(regex("(?P<host>[a-z]+)\\.example\\.com").matches("api.example.com", true)).isTrue();
    assertThat(regex("\\pL+").matches("bücher", false)).isTrue();
  }

  private static SubjectAltNameMatcher exact(String value) {
    return new SubjectAltNameMatcher(Kind.EXACT, value, false);
  }

  private static SubjectAltNameMatcher regex(String regex) {
    return new SubjectAltNameMatcher(Kind.SAFE_REGEX, regex, false);
  }
}
