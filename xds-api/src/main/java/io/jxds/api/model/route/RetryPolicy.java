package io.jxds.api.model.route;

import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A route's or a virtual host's {@code retry_policy} as gRFC A44 reads it, for gRPC's own retry
 * machinery (the call's method config {@code retryPolicy}): {@code maxAttempts} is
 * {@code num_retries + 1}, the backoff {@code retry_back_off} with multiplier 2. A route's policy
 * replaces its virtual host's.
 *
 * @param retryOn the status codes of {@code retry_on} that gRPC retries on ({@code cancelled},
 *     {@code deadline-exceeded}, {@code internal}, {@code resource-exhausted},
 *     {@code unavailable}), in the order of their codes, without duplicates; other tokens are ignored (A44). Empty:
 *     the policy retries nothing, and no retry policy is applied (it still replaces the virtual
 *     host's)
 * @param numRetries {@code num_retries} (default 1), in [1, 2^32-1]; the channel caps the attempts
 *     (grpc-java's {@code maxRetryAttempts}, 5 by default)
 * @param baseInterval {@code retry_back_off.base_interval} (default 25 ms), at least 1 ms
 * @param maxInterval {@code retry_back_off.max_interval} (default 10 × base), at least the base
 */
public record RetryPolicy(List<Status.Code> retryOn, long numRetries, Duration baseInterval, Duration maxInterval) {
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final Duration ONE_MILLI = Duration.ofMillis(1);

  /**
   * Checks the components; the list is copied.
   *
   * @param retryOn the codes to retry on
   * @param numRetries in [1, 2^32-1]
   * @param baseInterval at least 1 ms
   * @param maxInterval at least {@code baseInterval}
   * @throws IllegalArgumentException if a component is out of range
   */
  public RetryPolicy {
    retryOn = List.copyOf(retryOn);
    Objects.requireNonNull(baseInterval, "baseInterval");
    Objects.requireNonNull(maxInterval, "maxInterval");
    if (numRetries < 1 || numRetries > MAX_UINT32) {
      throw new IllegalArgumentException("numRetries must be in [1, 2^32-1], got " + numRetries);
    }
    if (baseInterval.compareTo(ONE_MILLI) < 0) {
      throw new IllegalArgumentException("baseInterval must be at least 1 ms, got " + baseInterval);
    }
    if (maxInterval.compareTo(baseInterval) < 0) {
      throw new IllegalArgumentException("maxInterval must be at least baseInterval, got " + maxInterval);
    }
    if (retryOn.stream().distinct().count() != retryOn.size()) {
      throw new IllegalArgumentException("retryOn must not repeat a code, got " + retryOn);
    }
  }

  /**
   * The attempts a call may make: {@code num_retries + 1}.
   *
   * @return in [2, 2^32]
   */
  public long maxAttempts() {
    return numRetries + 1;
  }
}
