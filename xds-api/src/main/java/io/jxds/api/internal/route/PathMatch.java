package io.jxds.api.internal.route;

import io.jxds.api.model.route.StringMatcher;

/**
 * A route's path matcher applied to a call's full method name ({@code package.Service/Method}, as
 * {@code MethodDescriptor.getFullMethodName()} gives it), whose path is {@code /} followed by it.
 * {@code prefix} and {@code path} compare the method name with what follows their {@code /},
 * worked out once, so the common routes build no string per call and a case-sensitive one is one
 * {@code equals} or {@code startsWith}; a prefix or path not starting with {@code /} matches no
 * call; the other matchers match the path built once per call.
 */
final class PathMatch {
  private static final int EVERY = 0;
  private static final int NONE = 1;
  private static final int EXACT = 2;
  private static final int PREFIX = 3;
  private static final int EXACT_IGNORE_CASE = 4;
  private static final int PREFIX_IGNORE_CASE = 5;
  private static final int OTHER = 6;

  private final StringMatcher matcher;
  private final int kind;
  /** For exact and prefix matchers: the value after its leading {@code /}. */
  private final String rest;

  PathMatch(StringMatcher matcher) {
    this.matcher = matcher;
    String value;
    boolean ignoreCase;
    boolean exact;
    if (matcher instanceof StringMatcher.Prefix p) {
      value = p.value();
      ignoreCase = p.ignoreCase();
      exact = false;
    } else if (matcher instanceof StringMatcher.Exact e) {
      value = e.value();
      ignoreCase = e.ignoreCase();
      exact = true;
    } else {
      this.kind = OTHER;
      this.rest = "";
      return;
    }
    if (!exact && (value.isEmpty() || value.equals("/"))) {
      this.kind = EVERY;
      this.rest = "";
    } else if (value.isEmpty() || value.charAt(0) != '/') {
      this.kind = NONE; // every path starts with '/'
      this.rest = "";
    } else {
      this.kind = exact ? (ignoreCase ? EXACT_IGNORE_CASE : EXACT) : (ignoreCase ? PREFIX_IGNORE_CASE : PREFIX);
      this.rest = value.substring(1);
    }
  }

  /** Whether every path matches: a prefix {@code ""} or {@code "/"} (a path starts with {@code /}). */
  boolean matchesEveryPath() {
    return kind == EVERY;
  }

  boolean matches(String fullMethodName) {
    return switch (kind) {
      case EVERY -> true;
      case NONE -> false;
      case EXACT -> fullMethodName.equals(rest);
      case PREFIX -> fullMethodName.startsWith(rest);
      case EXACT_IGNORE_CASE -> fullMethodName.equalsIgnoreCase(rest);
      case PREFIX_IGNORE_CASE -> fullMethodName.regionMatches(true, 0, rest, 0, rest.length());
      default -> matcher.matches("/" + fullMethodName);
    };
  }
}
