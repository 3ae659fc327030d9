package io.jxds.api.model;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A compiled {@code safe_regex} (an envoy {@code type.matcher.v3.RegexMatcher}): RE2's syntax,
 * matched against the whole input in time linear in the input's length, as the xDS API promises,
 * so that no input a peer or a request controls can pin a CPU. It is compiled once, when the
 * resource that carries it is decoded; {@link #matches} is safe to call from any thread.
 *
 * <p>Two matchers are equal when their regexes are the same text.
 */
public final class RegexMatcher {
  private final String regex;
  private final Pattern pattern;

  private RegexMatcher(String regex, Pattern pattern) {
    this.regex = regex;
    this.pattern = pattern;
  }

  /**
   * Compiles {@code regex} with RE2/J. What RE2 refuses is refused: backreferences, lookaround,
   * possessive quantifiers, and regexes too large or too deeply nested to compile safely.
   *
   * @param regex the regex, in RE2 syntax
   * @return the compiled matcher
   * @throws IllegalArgumentException when RE2 refuses {@code regex}; the message is RE2's error
   *     (for example {@code error parsing regexp: invalid escape sequence: `\1`})
   */
  public static RegexMatcher compile(String regex) {
    Objects.requireNonNull(regex, "regex");
    Re2Limits.check(regex);
    try {
      return new RegexMatcher(regex, Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (StackOverflowError e) {
      // RE2/J compiles recursively: within Re2Limits's depth, only a thread with a small stack
      // gets here. Compiling touches nothing shared, so the thread may go on.
      throw new IllegalArgumentException(
          "error parsing regexp: expression nests too deeply to compile on this thread's stack", e);
    }
  }

  /**
   * The regex as the control plane wrote it.
   *
   * @return the regex text
   */
  public String regex() {
    return regex;
  }

  /**
   * Whether the whole of {@code input} matches (the xDS {@code RegexMatcher} never matches a part).
   *
   * @param input the text to match
   * @return true when the regex matches all of it
   */
  public boolean matches(CharSequence input) {
    return pattern.matcher(input).matches();
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof RegexMatcher other && regex.equals(other.regex);
  }

  @Override
  public int hashCode() {
    return regex.hashCode();
  }

  @Override
  public String toString() {
    return regex;
  }
}
