package io.jxds.api.model.route;

import io.jxds.api.model.RegexMatcher;
import java.util.Objects;

/**
 * An envoy {@code type.matcher.v3.StringMatcher}: what a route's path and a header's value are
 * matched with (gRFC A28; gRFC A63 for {@code string_match}). A path's {@code prefix}, {@code path}
 * and {@code safe_regex} are {@link Prefix}, {@link Exact} and {@link SafeRegex}, with
 * {@code ignoreCase} the opposite of the route's {@code case_sensitive}.
 *
 * <p>{@code ignoreCase} compares characters as {@link String#regionMatches(boolean, int, String,
 * int, int)} does; it never applies to a regex (envoy's rule). A regex matches the whole input,
 * in RE2's syntax and in linear time ({@link RegexMatcher}).
 */
public sealed interface StringMatcher
    permits StringMatcher.Exact, StringMatcher.Prefix, StringMatcher.Suffix, StringMatcher.Contains,
        StringMatcher.SafeRegex {
  /**
   * Whether {@code input} matches.
   *
   * @param input the text to match: a path ({@code /package.Service/Method}) or a header value
   * @return true when it matches
   */
  boolean matches(String input);

  /**
   * {@code exact}: the whole input equals {@code value}.
   *
   * @param value the text
   * @param ignoreCase whether case is ignored
   */
  record Exact(String value, boolean ignoreCase) implements StringMatcher {
    /**
     * Checks the value.
     *
     * @param value the text
     * @param ignoreCase whether case is ignored
     */
    public Exact {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean matches(String input) {
      return ignoreCase ? input.equalsIgnoreCase(value) : input.equals(value);
    }
  }

  /**
   * {@code prefix}: the input starts with {@code value} (an empty prefix matches everything).
   *
   * @param value the prefix
   * @param ignoreCase whether case is ignored
   */
  record Prefix(String value, boolean ignoreCase) implements StringMatcher {
    /**
     * Checks the value.
     *
     * @param value the prefix
     * @param ignoreCase whether case is ignored
     */
    public Prefix {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean matches(String input) {
      return input.regionMatches(ignoreCase, 0, value, 0, value.length());
    }
  }

  /**
   * {@code suffix}: the input ends with {@code value}.
   *
   * @param value the suffix
   * @param ignoreCase whether case is ignored
   */
  record Suffix(String value, boolean ignoreCase) implements StringMatcher {
    /**
     * Checks the value.
     *
     * @param value the suffix
     * @param ignoreCase whether case is ignored
     */
    public Suffix {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean matches(String input) {
      int start = input.length() - value.length();
      return start >= 0 && input.regionMatches(ignoreCase, start, value, 0, value.length());
    }
  }

  /**
   * {@code contains}: {@code value} occurs somewhere in the input.
   *
   * @param value the text to find
   * @param ignoreCase whether case is ignored
   */
  record Contains(String value, boolean ignoreCase) implements StringMatcher {
    /**
     * Checks the value.
     *
     * @param value the text to find
     * @param ignoreCase whether case is ignored
     */
    public Contains {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean matches(String input) {
      if (!ignoreCase) {
        return input.contains(value);
      }
      for (int i = 0, last = input.length() - value.length(); i <= last; i++) {
        if (input.regionMatches(true, i, value, 0, value.length())) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * {@code safe_regex}: the whole input matches the regex (RE2, compiled once when the resource
   * was decoded).
   *
   * @param regex the compiled regex
   */
  record SafeRegex(RegexMatcher regex) implements StringMatcher {
    /**
     * Checks the regex.
     *
     * @param regex the compiled regex
     */
    public SafeRegex {
      Objects.requireNonNull(regex, "regex");
    }

    @Override
    public boolean matches(String input) {
      return regex.matches(input);
    }
  }
}
