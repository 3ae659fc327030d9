package io.jxds.api.internal.decode;

import com.google.protobuf.Duration;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.grpc.Status;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.RegexMatcher;
import io.jxds.api.model.route.HashPolicy;
import io.jxds.api.model.route.RegexRewrite;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Validates what a route's {@code route} action (and a virtual host) says about each call: the
 * timeout (gRFC A31), the retry policy (gRFC A44) and the hash policies (gRFC A42). A broken rule is
 * a NACK naming the resource, the field path and the value.
 *
 * <ul>
 *   <li>{@code max_stream_duration}: {@code grpc_timeout_header_max} when set, else
 *       {@code max_stream_duration}; each a duration in [0, 315576000000 s] (negative is invalid
 *       for Envoy too). Kept exactly: a value under 1 ms or of 10^7 s and more is a timeout like any
 *       other (grpc-java turns those into a decimal string in scientific notation that its own
 *       parser refuses, failing every call of the route).
 *   <li>{@code retry_policy}: {@code retry_on} split on {@code ,}, trimmed; {@code cancelled},
 *       {@code deadline-exceeded}, {@code internal}, {@code resource-exhausted} and
 *       {@code unavailable} kept (case and {@code _} for {@code -} do not matter, as in grpc-java),
 *       other tokens ignored (A44); {@code num_retries} (default 1) read
 *       unsigned, 0 NACKed (A44; grpc-java fails every call of the route instead);
 *       {@code retry_back_off} (default 25 ms, 250 ms): {@code base_interval} set and positive,
 *       {@code max_interval} (default 10 × base) not below it, each raised to 1 ms.
 *   <li>{@code hash_policy}: {@code header} (name not empty, lower-cased; {@code regex_rewrite}
 *       through RE2, its substitution checked as RE2 checks a rewrite) and {@code filter_state}
 *       with key {@code io.grpc.channel_id}; the other kinds produce no hash in gRPC and are left
 *       out.
 * </ul>
 */
final class RoutePolicyDecoder {
  static final long MAX_DURATION_SECONDS = 315_576_000_000L; // google.protobuf.Duration's range
  private static final java.time.Duration ONE_MILLI = java.time.Duration.ofMillis(1);
  private static final java.time.Duration DEFAULT_BASE = java.time.Duration.ofMillis(25);
  private static final String CHANNEL_ID = "io.grpc.channel_id";

  private RoutePolicyDecoder() {}

  /** The route's timeout: empty when unset (the listener's applies). */
  static Optional<java.time.Duration> maxStreamDuration(RouteAction action, String kind, String name, String path)
      throws XdsResourceException {
    if (!action.hasMaxStreamDuration()) {
      return Optional.empty();
    }
    RouteAction.MaxStreamDuration d = action.getMaxStreamDuration();
    String at = path + ".max_stream_duration";
    if (d.hasGrpcTimeoutHeaderMax()) {
      return Optional.of(duration(d.getGrpcTimeoutHeaderMax(), kind, name, at + ".grpc_timeout_header_max"));
    }
    if (d.hasMaxStreamDuration()) {
      return Optional.of(duration(d.getMaxStreamDuration(), kind, name, at + ".max_stream_duration"));
    }
    return Optional.empty();
  }

  /** A duration in [0, 315576000000 s], with nanos of its sign. */
  static java.time.Duration duration(Duration d, String kind, String name, String at) throws XdsResourceException {
    long seconds = d.getSeconds();
    int nanos = d.getNanos();
    boolean valid = seconds >= 0 && seconds <= MAX_DURATION_SECONDS && nanos >= 0 && nanos < 1_000_000_000;
    if (!valid) {
      throw Nack.of(kind, name, at + " must be a duration in [0, " + MAX_DURATION_SECONDS + "s]", describe(d));
    }
    return java.time.Duration.ofSeconds(seconds, nanos);
  }

  /** A retry policy as gRFC A44 reads it. */
  static io.jxds.api.model.route.RetryPolicy retryPolicy(RetryPolicy policy, String kind, String name, String path)
      throws XdsResourceException {
    Set<Status.Code> codes = EnumSet.noneOf(Status.Code.class);
    for (String token : policy.getRetryOn().split(",", -1)) {
      Status.Code code = retryableCode(token.trim());
      if (code != null) {
        codes.add(code);
      }
    }
    long numRetries = 1;
    if (policy.hasNumRetries()) {
      numRetries = Integer.toUnsignedLong(policy.getNumRetries().getValue());
      if (numRetries == 0) {
        throw Nack.of(kind, name, path + ".num_retries must be at least 1", "0");
      }
    }
    java.time.Duration base = DEFAULT_BASE;
    java.time.Duration max = DEFAULT_BASE.multipliedBy(10);
    if (policy.hasRetryBackOff()) {
      RetryPolicy.RetryBackOff backOff = policy.getRetryBackOff();
      String at = path + ".retry_back_off";
      if (!backOff.hasBaseInterval()) {
        throw Nack.of(kind, name, at + ".base_interval must be set", "unset");
      }
      java.time.Duration given = duration(backOff.getBaseInterval(), kind, name, at + ".base_interval");
      if (given.isZero()) {
        throw Nack.of(kind, name, at + ".base_interval must be positive", describe(backOff.getBaseInterval()));
      }
      base = atLeastOneMilli(given);
      if (backOff.hasMaxInterval()) {
        java.time.Duration givenMax = duration(backOff.getMaxInterval(), kind, name, at + ".max_interval");
        if (givenMax.compareTo(given) < 0) {
          throw Nack.of(kind, name, at + ".max_interval must be at least base_interval (" + seconds(given) + ")",
              describe(backOff.getMaxInterval()));
        }
        max = atLeastOneMilli(givenMax);
      } else {
        max = base.multipliedBy(10);
      }
    }
    return new io.jxds.api.model.route.RetryPolicy(new ArrayList<>(codes), numRetries, base, max);
  }

  /** The hash policies gRPC computes, in order. */
  static List<HashPolicy> hashPolicies(List<RouteAction.HashPolicy> policies, String kind, String name, String path)
      throws XdsResourceException {
    if (policies.isEmpty()) {
      return List.of();
    }
    List<HashPolicy> result = new ArrayList<>(policies.size());
    for (int i = 0; i < policies.size(); i++) {
      RouteAction.HashPolicy p = policies.get(i);
      String at = path + ".hash_policy[" + i + "]";
      switch (p.getPolicySpecifierCase()) {
        case HEADER -> result.add(header(p.getHeader(), p.getTerminal(), kind, name, at + ".header"));
        case FILTER_STATE -> {
          if (CHANNEL_ID.equals(p.getFilterState().getKey())) {
            result.add(new HashPolicy.ChannelId(p.getTerminal()));
          }
        }
        default -> { } // cookie, connection_properties, query_parameter: no hash in gRPC (A42)
      }
    }
    return List.copyOf(result);
  }

  private static HashPolicy header(RouteAction.HashPolicy.Header header, boolean terminal, String kind, String name,
      String at) throws XdsResourceException {
    if (header.getHeaderName().isEmpty()) {
      throw Nack.of(kind, name, at + ".header_name must not be empty", "\"\"");
    }
    Optional<RegexRewrite> rewrite = Optional.empty();
    if (header.hasRegexRewrite()) {
      var r = header.getRegexRewrite();
      RegexMatcher pattern = SafeRegexDecoder.decode(r.getPattern(), kind, name, at + ".regex_rewrite.pattern");
      try {
        rewrite = Optional.of(RegexRewrite.of(pattern, r.getSubstitution()));
      } catch (IllegalArgumentException e) {
        throw Nack.of(kind, name, at + ".regex_rewrite.substitution must be a valid RE2 rewrite",
            Nack.quote(r.getSubstitution()) + " (" + e.getMessage() + ")");
      }
    }
    return new HashPolicy.Header(header.getHeaderName().toLowerCase(Locale.ROOT), rewrite, terminal);
  }

  private static Status.Code retryableCode(String token) {
    // As grpc-java reads them: case and '-' / '_' do not matter.
    return switch (token.toLowerCase(Locale.ROOT).replace('_', '-')) {
      case "cancelled" -> Status.Code.CANCELLED;
      case "deadline-exceeded" -> Status.Code.DEADLINE_EXCEEDED;
      case "internal" -> Status.Code.INTERNAL;
      case "resource-exhausted" -> Status.Code.RESOURCE_EXHAUSTED;
      case "unavailable" -> Status.Code.UNAVAILABLE;
      default -> null;
    };
  }

  private static java.time.Duration atLeastOneMilli(java.time.Duration d) {
    return d.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : d;
  }

  private static String seconds(java.time.Duration d) {
    return d.toString().substring(2).toLowerCase(Locale.ROOT);
  }

  static String describe(Duration d) {
    return "{seconds: " + d.getSeconds() + ", nanos: " + d.getNanos() + "}";
  }
}
