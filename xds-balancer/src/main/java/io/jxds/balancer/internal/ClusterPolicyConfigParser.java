package io.jxds.balancer.internal;

import io.grpc.NameResolver.ConfigOrError;
import io.grpc.Status;
import io.jxds.client.internal.DurationText;
import java.time.Duration;
import java.util.Map;

/**
 * Parses the JSON object of {@code {"xds_cluster": {...}}}. Every problem is a
 * {@code Status.INVALID_ARGUMENT} that names the field. Unknown fields are ignored, as gRPC's own
 * policies ignore them: a newer config may carry knobs that an older jxds does not know.
 */
public final class ClusterPolicyConfigParser {
  private ClusterPolicyConfigParser() {}

  public static ConfigOrError parse(Map<String, ?> json) {
    if (json == null) {
      return invalid("config must be a JSON object with a \"cluster\" field");
    }
    Object cluster = json.get("cluster");
    if (cluster == null) {
      return invalid("\"cluster\" is required");
    }
    if (!(cluster instanceof String name)) {
      return invalid("\"cluster\" must be a string, got " + describe(cluster));
    }
    if (name.isEmpty()) {
      return invalid("\"cluster\" must not be empty");
    }
    Duration failover;
    Duration retention;
    try {
      failover = duration(json, "failoverTimeout", ClusterPolicyConfig.DEFAULT_FAILOVER_TIMEOUT);
      retention = duration(json, "childRetention", ClusterPolicyConfig.DEFAULT_CHILD_RETENTION);
    } catch (IllegalArgumentException e) {
      return invalid(e.getMessage());
    }
    Object hashHeader = json.containsKey("hashHeader") ? json.get("hashHeader") : "";
    if (!(hashHeader instanceof String header)) {
      return invalid(
          "\"hashHeader\" must be a header name string such as \"x-user-id\", got " + describe(hashHeader));
    }
    if (!header.isEmpty() && !isHeaderName(header)) {
      return invalid("\"hashHeader\" must be a legal ASCII header name not starting with \":\" or ending in "
          + "\"-bin\", got \"" + header + "\"");
    }
    if (failover.isZero()) {
      // PriorityConfig needs a positive timer: a zero one would fail over before any connect.
      return invalid("\"failoverTimeout\" must be positive, got \"0s\"");
    }
    return ConfigOrError.fromConfig(new ClusterPolicyConfig(name, failover, retention, header));
  }

  /** A gRPC ASCII metadata key: lower-case letters, digits, '-', '_', '.'; not binary, not pseudo. */
  private static boolean isHeaderName(String name) {
    if (name.endsWith("-bin")) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = Character.toLowerCase(name.charAt(i));
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
        return false;
      }
    }
    return true;
  }

  private static Duration duration(Map<String, ?> json, String field, Duration dflt) {
    Object value = json.get(field);
    if (value == null) {
      return dflt;
    }
    if (!(value instanceof String text)) {
      throw new IllegalArgumentException(
          "\"" + field + "\" must be a duration string such as \"2s\", got " + describe(value));
    }
    try {
      return DurationText.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + field + "\": " + e.getMessage(), e);
    }
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Number) {
      return "number " + value;
    }
    if (value instanceof Boolean) {
      return "boolean " + value;
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof java.util.List) {
      return "a list";
    }
    return value.getClass().getSimpleName() + " " + value;
  }

  private static ConfigOrError invalid(String message) {
    return ConfigOrError.fromError(
        Status.INVALID_ARGUMENT.withDescription("xds_cluster config: " + message));
  }
}
