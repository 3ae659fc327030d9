package io.jxds.api.model.route;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.jxds.api.model.RegexMatcher;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@code regex_rewrite} ({@code type.matcher.v3.RegexMatchAndSubstitute}): every match of
 * {@link #pattern()} in a value is replaced by {@link #substitution()}, in RE2's syntax, as Envoy
 * applies it: {@code \0} is the whole match, {@code \1}..{@code \9} a capture group, {@code \\} a
 * backslash; anything else in the substitution is literal ({@code $} included). grpc-java reads
 * the substitution with Java's {@code $1} syntax instead, so an Envoy-style {@code \1} becomes a
 * literal {@code 1} there.
 *
 * <p>Immutable; {@link #rewrite} is safe from any thread. Two rewrites are equal when their regex
 * and substitution are.
 */
public final class RegexRewrite {
  private final RegexMatcher pattern;
  private final String substitution;
  private final Pattern compiled;
  private final String javaReplacement;

  private RegexRewrite(RegexMatcher pattern, String substitution, Pattern compiled, String javaReplacement) {
    this.pattern = pattern;
    this.substitution = substitution;
    this.compiled = compiled;
    this.javaReplacement = javaReplacement;
  }

  /**
   * Checks the substitution against the pattern.
   *
   * @param pattern the regex
   * @param substitution the substitution, in RE2's rewrite syntax
   * @return the rewrite
   * @throws IllegalArgumentException if the substitution has a {@code \} followed by neither a digit
   *     nor a {@code \}, or names a group the pattern lacks (RE2's own check, which Envoy applies)
   */
  public static RegexRewrite of(RegexMatcher pattern, String substitution) {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(substitution, "substitution");
    Pattern compiled = Pattern.compile(pattern.regex());
    int groups = compiled.groupCount();
    StringBuilder java = new StringBuilder(substitution.length() + 8);
    for (int i = 0; i < substitution.length(); i++) {
      char c = substitution.charAt(i);
      if (c == '\\') {
        if (i + 1 == substitution.length()) {
          throw new IllegalArgumentException("a \\ must not end the substitution");
        }
        char n = substitution.charAt(++i);
        if (n == '\\') {
          java.append("\\\\");
        } else if (n >= '0' && n <= '9') {
          if (n - '0' > groups) {
            throw new IllegalArgumentException("\\" + n + " names a group the regex lacks (it has " + groups + ")");
          }
          java.append('$').append(n);
        } else {
          throw new IllegalArgumentException("\\" + n + " is not \\0..\\9 or \\\\");
        }
      } else if (c == '$') {
        java.append("\\$");
      } else {
        java.append(c);
      }
    }
    return new RegexRewrite(pattern, substitution, compiled, java.toString());
  }

  /**
   * The regex.
   *
   * @return {@code pattern}
   */
  public RegexMatcher pattern() {
    return pattern;
  }

  /**
   * The substitution, as the resource gave it.
   *
   * @return {@code substitution}
   */
  public String substitution() {
    return substitution;
  }

  /**
   * Replaces every match in {@code value}.
   *
   * @param value the input
   * @return the rewritten value
   */
  public String rewrite(String value) {
    Matcher m = compiled.matcher(value);
    return m.replaceAll(javaReplacement);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof RegexRewrite r && r.pattern.equals(pattern) && r.substitution.equals(substitution);
  }

  @Override
  public int hashCode() {
    return pattern.hashCode() * 31 + substitution.hashCode();
  }

  @Override
  public String toString() {
    return "RegexRewrite{" + pattern.regex() + " -> " + substitution + "}";
  }
}
