package io.jxds.api.model.route;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a route's {@code match.headers} (an envoy {@code config.route.v3.HeaderMatcher}):
 * every entry must match for the route to match (gRFC A28).
 *
 * <p>{@link #matches} takes the header's value as the client reads it from the call (gRFC A28:
 * several values joined with {@code ","}; binary {@code -bin} headers and pseudo-headers absent;
 * {@code content-type} reads {@code application/grpc}), or null when the call lacks the header:
 *
 * <ul>
 *   <li>a present header matches when its {@link #match() value matches}; with {@code invert},
 *       when it does not;
 *   <li>an absent header matches nothing, inverted or not, except a {@link PresentMatch}, which
 *       asks exactly whether it is there ({@code present_match: false} matches an absent header,
 *       and {@code invert} flips that too);
 *   <li>with {@code treatMissingAsEmpty} ({@code treat_missing_header_as_empty}), an absent header
 *       is read as present with the empty value, as envoy does. Istio sets it for a
 *       VirtualService's {@code withoutHeaders}, so that a call without the header is routed there.
 * </ul>
 *
 * @param name the header's name, lower case (header names are case-insensitive)
 * @param match what the value must satisfy
 * @param invert {@code invert_match}
 * @param treatMissingAsEmpty {@code treat_missing_header_as_empty}
 */
public record HeaderMatcher(String name, HeaderMatcher.Match match, boolean invert, boolean treatMissingAsEmpty) {
  /**
   * Checks the components; the name is lower-cased.
   *
   * @param name the header's name, not empty
   * @param match what the value must satisfy
   * @param invert {@code invert_match}
   * @param treatMissingAsEmpty {@code treat_missing_header_as_empty}
   * @throws IllegalArgumentException if the name is empty
   */
  public HeaderMatcher {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    name = name.toLowerCase(Locale.ROOT);
  }

  /**
   * A matcher that is neither inverted nor treats a missing header as empty.
   *
   * @param name the header's name, not empty
   * @param match what the value must satisfy
   * @return the matcher
   */
  public static HeaderMatcher of(String name, Match match) {
    return new HeaderMatcher(name, match, false, false);
  }

  /**
   * Whether a call whose header has {@code value} matches.
   *
   * @param value the header's value as the client reads it, or null when the call lacks it
   * @return true when this matcher matches
   */
  public boolean matches(@Nullable String value) {
    String v = value == null && treatMissingAsEmpty ? "" : value;
    if (match instanceof PresentMatch present) {
      return (v != null) == present.present() != invert;
    }
    return v != null && match.matchesValue(v) != invert;
  }

  /** What a present header's value must satisfy: the {@code header_match_specifier}. */
  public sealed interface Match permits StringMatch, RangeMatch, PresentMatch {
    /**
     * Whether a present header's value satisfies this, before {@code invert}.
     *
     * @param value the header's value
     * @return true when it does
     */
    boolean matchesValue(String value);
  }

  /**
   * {@code string_match} (gRFC A63), and the deprecated {@code exact_match},
   * {@code safe_regex_match}, {@code prefix_match}, {@code suffix_match} and
   * {@code contains_match}, which read as a string matcher with {@code ignore_case} false.
   *
   * @param matcher the string matcher
   */
  public record StringMatch(StringMatcher matcher) implements Match {
    /**
     * Checks the matcher.
     *
     * @param matcher the string matcher
     */
    public StringMatch {
      Objects.requireNonNull(matcher, "matcher");
    }

    @Override
    public boolean matchesValue(String value) {
      return matcher.matches(value);
    }
  }

  /**
   * {@code range_match}: the value, read as a signed 64-bit decimal integer, lies in
   * {@code [start, end)}. The end is excluded, as the xDS API defines {@code Int64Range} ("[-10,0)
   * matches -1 but not 0"); grpc-java includes it. A value that is not such an integer does not
   * match.
   *
   * @param start the smallest matching value
   * @param end the first value past the range, at least {@code start}
   */
  public record RangeMatch(long start, long end) implements Match {
    /**
     * Checks the bounds.
     *
     * @param start the smallest matching value
     * @param end the first value past the range
     * @throws IllegalArgumentException if {@code end < start}
     */
    public RangeMatch {
      if (end < start) {
        throw new IllegalArgumentException("end must be >= start, got [" + start + ", " + end + ")");
      }
    }

    @Override
    public boolean matchesValue(String value) {
      long v;
      try {
        v = Long.parseLong(value);
      } catch (NumberFormatException e) {
        return false;
      }
      return v >= start && v < end;
    }
  }

  /**
   * {@code present_match}: whether the header is there at all.
   *
   * @param present true to match a call that has the header, false to match one that lacks it
   */
  public record PresentMatch(boolean present) implements Match {
    @Override
    public boolean matchesValue(String value) {
      return present;
    }
  }
}
