package io.jxds.api.model.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.api.model.RegexMatcher;
import org.junit.jupiter.api.Test;

class StringMatcherTest {
  @Test
  void exactComparesTheWholeInput() {
    assertThat(new StringMatcher.Exact("/svc/Get", false).matches("/svc/Get")).isTrue();
    assertThat(new StringMatcher.Exact("/svc/Get", false).matches("/svc/get")).isFalse();
    assertThat(new StringMatcher.Exact("/svc/Get", false).matches("/svc/Get2")).isFalse();
    assertThat(new StringMatcher.Exact("/svc/Get", true).matches("/SVC/get")).isTrue();
  }

  @Test
  void prefixIsCaseSensitiveUnlessIgnoreCase() {
    assertThat(new StringMatcher.Prefix("/Svc/", false).matches("/Svc/Get")).isTrue();
    assertThat(new StringMatcher.Prefix("/Svc/", false).matches("/svc/Get")).isFalse();
    assertThat(new StringMatcher.Prefix("/Svc/", true).matches("/svc/Get")).isTrue();
    assertThat(new StringMatcher.Prefix("/Svc/Get/more", true).matches("/svc/Get")).isFalse();
  }

  @Test
  void emptyPrefixMatchesEverything() {
    assertThat(new StringMatcher.Prefix("", false).matches("")).isTrue();
    assertThat(new StringMatcher.Prefix("", false).matches("/a/b")).isTrue();
  }

  @Test
  void suffixAndContains() {
    assertThat(new StringMatcher.Suffix("-canary", false).matches("v2-canary")).isTrue();
    assertThat(new StringMatcher.Suffix("-canary", false).matches("v2-CANARY")).isFalse();
    assertThat(new StringMatcher.Suffix("-canary", true).matches("v2-CANARY")).isTrue();
    assertThat(new StringMatcher.Suffix("long-suffix", true).matches("fix")).isFalse();
    assertThat(new StringMatcher.Contains("beta", false).matches("x-beta-y")).isTrue();
    assertThat(new StringMatcher.Contains("beta", false).matches("x-BETA-y")).isFalse();
    assertThat(new StringMatcher.Contains("beta", true).matches("x-BETA-y")).isTrue();
    assertThat(new StringMatcher.Contains("beta", true).matches("bet")).isFalse();
    assertThat(new StringMatcher.Contains("", true).matches("")).isTrue();
  }

  @Test
  void safeRegexMatchesTheWholeInput() {
    StringMatcher m = new StringMatcher.SafeRegex(RegexMatcher.compile("/svc/[A-Z][a-z]+"));
    assertThat(m.matches("/svc/Get")).isTrue();
    assertThat(m.matches("/svc/Get/x")).isFalse();
    assertThat(m.matches("x/svc/Get")).isFalse();
  }
}
