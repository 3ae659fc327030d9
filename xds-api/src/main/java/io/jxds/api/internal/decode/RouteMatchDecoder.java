package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.route.HeaderMatcher.Match;
import io.jxds.api.model.route.HeaderMatcher.PresentMatch;
import io.jxds.api.model.route.HeaderMatcher.RangeMatch;
import io.jxds.api.model.route.HeaderMatcher.StringMatch;
import io.jxds.api.model.route.RuntimeFraction;
import io.jxds.api.model.route.StringMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Validates a route's {@code match} (gRFC A28, A63); the caller has left out routes with
 * {@code query_parameters}.
 *
 * <ul>
 *   <li>{@code path_specifier}: {@code prefix}, {@code path} or {@code safe_regex} (RE2, see
 *       {@link SafeRegexDecoder}); anything else ({@code path_separated_prefix},
 *       {@code path_match_policy}, {@code connect_matcher}, unset) is a NACK.
 *       {@code case_sensitive} unset means true, as envoy and gRFC A28 say (grpc-java reads unset
 *       as false and matches every path case-insensitively); it never applies to a regex.
 *   <li>{@code headers}: a name, and one of {@code exact_match}, {@code safe_regex_match},
 *       {@code range_match} (end at least start), {@code present_match}, {@code prefix_match},
 *       {@code suffix_match}, {@code contains_match} or {@code string_match} (with a pattern other
 *       than {@code custom}).
 *   <li>{@code runtime_fraction.default_value}: denominator HUNDRED, TEN_THOUSAND or MILLION; the
 *       numerator read unsigned; {@code runtime_key} ignored.
 *   <li>{@code grpc}, {@code tls_context}, {@code dynamic_metadata} and other fields are ignored.
 * </ul>
 */
final class RouteMatchDecoder {
  private RouteMatchDecoder() {}

  static io.jxds.api.model.route.RouteMatch decode(RouteMatch match, String kind, String name, String path)
      throws XdsResourceException {
    return new io.jxds.api.model.route.RouteMatch(
        pathMatcher(match, kind, name, path), headers(match, kind, name, path), fraction(match, kind, name, path));
  }

  private static StringMatcher pathMatcher(RouteMatch match, String kind, String name, String path)
      throws XdsResourceException {
    boolean ignoreCase = match.hasCaseSensitive() && !match.getCaseSensitive().getValue();
    switch (match.getPathSpecifierCase()) {
      case PREFIX:
        return new StringMatcher.Prefix(match.getPrefix(), ignoreCase);
      case PATH:
        return new StringMatcher.Exact(match.getPath(), ignoreCase);
      case SAFE_REGEX:
        return new StringMatcher.SafeRegex(
            SafeRegexDecoder.decode(match.getSafeRegex(), kind, name, path + ".safe_regex"));
      case PATH_SEPARATED_PREFIX:
        throw Nack.of(kind, name, path + ".path_specifier must be prefix, path or safe_regex", "path_separated_prefix");
      case PATH_MATCH_POLICY:
        throw Nack.of(kind, name, path + ".path_specifier must be prefix, path or safe_regex", "path_match_policy");
      case CONNECT_MATCHER:
        throw Nack.of(kind, name, path + ".path_specifier must be prefix, path or safe_regex", "connect_matcher");
      default:
        throw Nack.of(kind, name, path + ".path_specifier must be prefix, path or safe_regex", "unset");
    }
  }

  private static List<io.jxds.api.model.route.HeaderMatcher> headers(
      RouteMatch match, String kind, String name, String path) throws XdsResourceException {
    List<io.jxds.api.model.route.HeaderMatcher> result = new ArrayList<>(match.getHeadersCount());
    for (int i = 0; i < match.getHeadersCount(); i++) {
      HeaderMatcher h = match.getHeaders(i);
      String at = path + ".headers[" + i + "]";
      if (h.getName().isEmpty()) {
        throw Nack.of(kind, name, at + ".name must not be empty", "\"\"");
      }
      result.add(new io.jxds.api.model.route.HeaderMatcher(
          h.getName(), headerMatch(h, kind, name, at), h.getInvertMatch(), h.getTreatMissingHeaderAsEmpty()));
    }
    return result;
  }

  private static Match headerMatch(HeaderMatcher h, String kind, String name, String at)
      throws XdsResourceException {
    switch (h.getHeaderMatchSpecifierCase()) {
      case EXACT_MATCH:
        return new StringMatch(new StringMatcher.Exact(h.getExactMatch(), false));
      case SAFE_REGEX_MATCH:
        return new StringMatch(new StringMatcher.SafeRegex(
            SafeRegexDecoder.decode(h.getSafeRegexMatch(), kind, name, at + ".safe_regex_match")));
      case RANGE_MATCH:
        long start = h.getRangeMatch().getStart();
        long end = h.getRangeMatch().getEnd();
        if (end < start) {
          throw Nack.of(kind, name, at + ".range_match.end must be at least start", "[" + start + ", " + end + ")");
        }
        return new RangeMatch(start, end);
      case PRESENT_MATCH:
        return new PresentMatch(h.getPresentMatch());
      case PREFIX_MATCH:
        return new StringMatch(new StringMatcher.Prefix(h.getPrefixMatch(), false));
      case SUFFIX_MATCH:
        return new StringMatch(new StringMatcher.Suffix(h.getSuffixMatch(), false));
      case CONTAINS_MATCH:
        return new StringMatch(new StringMatcher.Contains(h.getContainsMatch(), false));
      case STRING_MATCH:
        return new StringMatch(stringMatcher(h.getStringMatch(), kind, name, at + ".string_match"));
      default:
        throw Nack.of(kind, name, at + ".header_match_specifier must be set", "unset");
    }
  }

  /** gRFC A63: {@code ignore_case} applies to every pattern but a regex. */
  static StringMatcher stringMatcher(
      io.envoyproxy.envoy.type.matcher.v3.StringMatcher m, String kind, String name, String at)
      throws XdsResourceException {
    boolean ignoreCase = m.getIgnoreCase();
    switch (m.getMatchPatternCase()) {
      case EXACT:
        return new StringMatcher.Exact(m.getExact(), ignoreCase);
      case PREFIX:
        return new StringMatcher.Prefix(m.getPrefix(), ignoreCase);
      case SUFFIX:
        return new StringMatcher.Suffix(m.getSuffix(), ignoreCase);
      case CONTAINS:
        return new StringMatcher.Contains(m.getContains(), ignoreCase);
      case SAFE_REGEX:
        return new StringMatcher.SafeRegex(SafeRegexDecoder.decode(m.getSafeRegex(), kind, name, at + ".safe_regex"));
      case CUSTOM:
        throw Nack.of(kind, name, at + ".match_pattern must be exact, prefix, suffix, contains or safe_regex",
            "custom " + Nack.quote(m.getCustom().getName()));
      default:
        throw Nack.of(kind, name, at + ".match_pattern must be exact, prefix, suffix, contains or safe_regex", "unset");
    }
  }

  private static Optional<RuntimeFraction> fraction(RouteMatch match, String kind, String name, String path)
      throws XdsResourceException {
    if (!match.hasRuntimeFraction()) {
      return Optional.empty();
    }
    FractionalPercent percent = match.getRuntimeFraction().getDefaultValue();
    long denominator;
    switch (percent.getDenominatorValue()) {
      case FractionalPercent.DenominatorType.HUNDRED_VALUE:
        denominator = 100;
        break;
      case FractionalPercent.DenominatorType.TEN_THOUSAND_VALUE:
        denominator = 10_000;
        break;
      case FractionalPercent.DenominatorType.MILLION_VALUE:
        denominator = 1_000_000;
        break;
      default:
        throw Nack.of(kind, name, path + ".runtime_fraction.default_value.denominator must be HUNDRED, TEN_THOUSAND "
            + "or MILLION", String.valueOf(percent.getDenominatorValue()));
    }
    return Optional.of(new RuntimeFraction(Integer.toUnsignedLong(percent.getNumerator()), denominator));
  }
}
