package io.jxds.api.internal.route;

import io.jxds.api.model.route.StringMatcher;

/**
 * A route's path matcher applied to a call's full method name ({@code package.Service/Method}, as
 * {@code MethodDescriptor.getFullMethodName()} gives it), whose path is {@code /} followed by it.
 * {@code prefix} and {@code path} compare in place, so the common routes build no string per call;
 * the other matchers match the path built once.
 */
final class PathMatch {
  private final StringMatcher matcher;

  PathMatch(StringMatcher matcher) {
    this.matcher = matcher;
  }

  /** Whether every path matches: a prefix {@code ""} or {@code "/"} (a path starts with {@code /}). */
  boolean matchesEveryPath() {
    return matcher instanceof StringMatcher.Prefix p && (p.value().isEmpty() || p.value().equals("/"));
  }

  boolean matches(String fullMethodName) {
    if (matcher instanceof StringMatcher.Prefix p) {
      String prefix = p.value();
      if (prefix.isEmpty()) {
        return true;
      }
      // the path's first character is '/'; the rest of the prefix must start the method name
      return prefix.charAt(0) == '/'
          && fullMethodName.regionMatches(p.ignoreCase(), 0, prefix, 1, prefix.length() - 1);
    }
    if (matcher instanceof StringMatcher.Exact e) {
      String path = e.value();
      return path.length() == fullMethodName.length() + 1 && path.charAt(0) == '/'
          && fullMethodName.regionMatches(e.ignoreCase(), 0, path, 1, fullMethodName.length());
    }
    return matcher.matches("/" + fullMethodName);
  }
}
