package io.jxds.balancer.internal.resolver;

import io.grpc.Status;
import io.jxds.api.model.route.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The service config of a routed call (gRFC A31, A44) in the JSON form the channel's own parser
 * reads: one method config for every method, with the route's {@code timeout} and
 * {@code retryPolicy}. gRPC's retry machinery then runs the attempts (throttling, buffer limits,
 * {@code grpc-previous-rpc-attempts}) and the channel sets the deadline, never later than the
 * application's.
 *
 * <p>Durations are written as {@code SECONDS.NANOSs} from their exact integer parts, so every
 * valid duration parses, from 1 ns to 315576000000 s (grpc-java writes a double, whose scientific
 * notation under 1 ms and from 10^7 s its parser refuses, failing every call of the route).
 */
final class MethodConfigJson {
  private MethodConfigJson() {}

  /**
   * The service config, or null when there is neither a timeout nor a retry policy.
   *
   * @param timeout the call timeout, or null for none
   * @param retry the retry policy, or null; one with no code to retry on is left out (A44)
   */
  static @Nullable Map<String, ?> of(@Nullable Duration timeout, @Nullable RetryPolicy retry) {
    Map<String, Object> method = new LinkedHashMap<>();
    method.put("name", List.of(Map.of()));
    if (timeout != null) {
      method.put("timeout", duration(timeout));
    }
    if (retry != null && !retry.retryOn().isEmpty()) {
      Map<String, Object> policy = new LinkedHashMap<>();
      // JSON numbers are doubles to the parser; the channel caps the attempts (5 by default).
      policy.put("maxAttempts", (double) Math.min(retry.maxAttempts(), Integer.MAX_VALUE));
      policy.put("initialBackoff", duration(retry.baseInterval()));
      policy.put("maxBackoff", duration(retry.maxInterval()));
      policy.put("backoffMultiplier", 2.0);
      List<String> codes = new ArrayList<>();
      for (Status.Code c : retry.retryOn()) {
        codes.add(c.name());
      }
      policy.put("retryableStatusCodes", codes);
      method.put("retryPolicy", policy);
    }
    if (method.size() == 1) {
      return null;
    }
    return Map.of("methodConfig", List.of(method));
  }

  /** {@code SECONDS.NANOSs}, nine digits of nanos: a protobuf JSON duration without rounding. */
  static String duration(Duration d) {
    return d.getSeconds() + "." + String.format("%09d", d.getNano()) + "s";
  }
}
