package io.jxds.api.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code safe_regex} on RE2/J, within RE2's limits. */
class RegexMatcherTest {
  @Test
  void matchesTheWholeInputOnly() {
    RegexMatcher m = RegexMatcher.compile("/pkg\\.[A-Z][a-z]+/Get");

    assertThat(m.matches("/pkg.Service/Get")).isTrue();
    assertThat(m.matches("/pkg.Service/GetAll")).isFalse();
    assertThat(m.regex()).isEqualTo("/pkg\\.[A-Z][a-z]+/Get");
  }

  @Test
  void equalWhenTheRegexTextIs() {
    assertThat(RegexMatcher.compile("a+")).isEqualTo(RegexMatcher.compile("a+"))
        .hasSameHashCodeAs(RegexMatcher.compile("a+")).isNotEqualTo(RegexMatcher.compile("a*"));
    assertThat(RegexMatcher.compile("a+")).hasToString("a+");
  }

  @Test
  void nestedRepetitionsMayMultiplyTo1000AndNoFurther() {
    assertThat(RegexMatcher.compile("(a{10}){100}").matches("a".repeat(1000))).isTrue();
    assertThat(RegexMatcher.compile("((a{2}){500}b)*").matches("a".repeat(1000) + "b")).isTrue();
    assertThatThrownBy(() -> RegexMatcher.compile("(a{11}){100}")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: invalid repeat count: nested repetitions multiply to more than 1000: "
            + "`{100}`");
    assertThatThrownBy(() -> RegexMatcher.compile("((a{2,}){10}){51}"))
        .as("{n,} counts n").isInstanceOf(IllegalArgumentException.class);
    assertThat(RegexMatcher.compile("((a{1000}){0010}){0001000}").matches("a".repeat(1000) + "{0010}{0001000}"))
        .as("for RE2, a count with a leading zero is literal text").isTrue();
    assertThatThrownBy(() -> RegexMatcher.compile("(?:x|(?:[ab]{1,40}|c){30})"))
        .as("the widest path counts").isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void escapesAndClassesHideNoRepetition() {
    // Literal braces, \Q..\E, classes with ] and [:alpha:], \p{..} and \x{..}: none is a group.
    assertThat(RegexMatcher.compile("\\((a{1000})\\)").matches("(" + "a".repeat(1000) + ")")).isTrue();
    assertThat(RegexMatcher.compile("\\Q(\\E(a{1000})").matches("(" + "a".repeat(1000))).isTrue();
    assertThat(RegexMatcher.compile("[]()[:alpha:]](a{1000})").matches("(" + "a".repeat(1000))).isTrue();
    assertThat(RegexMatcher.compile("\\p{Greek}\\x{41}(a{1000})").matches("αA" + "a".repeat(1000))).isTrue();
    assertThat(RegexMatcher.compile("a{,5}").matches("a{,5}")).as("not a repetition: literal").isTrue();
    assertThatThrownBy(() -> RegexMatcher.compile("[(](\\)(a{1000})){2}")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiply to more than 1000");
  }

  @Test
  void programsOfMoreThan100000InstructionsAreRefused() {
    String big = "[a-z]{1000}".repeat(99);
    assertThat(RegexMatcher.compile(big).regex()).isEqualTo(big);
    assertThatThrownBy(() -> RegexMatcher.compile("[a-z]{1000}".repeat(101)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: expression too large: more than 100000 instructions once its "
            + "repetitions are expanded");
  }

  @Test
  void groupsMayNest1000Deep() {
    String deepest = "(".repeat(1000) + "a" + ")".repeat(1000);
    assertThat(RegexMatcher.compile(deepest).matches("a")).isTrue();
    assertThatThrownBy(() -> RegexMatcher.compile("(" + deepest + ")"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: expression nests too deeply: more than 1000 levels");
  }

  @Test
  void syntaxErrorsAreRe2Js() {
    assertThatThrownBy(() -> RegexMatcher.compile("a{2}{3}")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("error parsing regexp: ");
    assertThatThrownBy(() -> RegexMatcher.compile("(a")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: missing closing ): `(a`");
    assertThatThrownBy(() -> RegexMatcher.compile("a)")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("error parsing regexp: ");
  }
}
