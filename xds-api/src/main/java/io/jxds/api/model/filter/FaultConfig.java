package io.jxds.api.model.filter;

import io.grpc.Status;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The fault-injection filter's config ({@code envoy.extensions.filters.http.fault.v3.HTTPFault},
 * gRFC A33): delay a share of the calls before they are sent, fail a share of them without sending
 * anything, or both (delay first). Each is decided with its own random draw. Only the fields gRPC
 * applies are here: {@code upstream_cluster}, {@code headers}, {@code downstream_nodes}, the
 * response rate limit and the {@code *_runtime} keys are not read (gRFC A33 defers or drops them).
 *
 * @param delay {@code delay}; empty: no delay
 * @param abort {@code abort}; empty: no abort
 * @param maxActiveFaults {@code max_active_faults}: at most this many calls of the process are in a
 *     fault (delayed, or being failed) at once; a call that would pass it gets none; empty: no limit
 */
public record FaultConfig(Optional<Delay> delay, Optional<Abort> abort, OptionalLong maxActiveFaults)
    implements HttpFilterConfig {
  /**
   * Checks the components.
   *
   * @param delay the delay
   * @param abort the abort
   * @param maxActiveFaults the limit, not negative
   * @throws IllegalArgumentException if the limit is negative
   */
  public FaultConfig {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(abort, "abort");
    Objects.requireNonNull(maxActiveFaults, "maxActiveFaults");
    if (maxActiveFaults.isPresent() && maxActiveFaults.getAsLong() < 0) {
      throw new IllegalArgumentException("maxActiveFaults must not be negative, got " + maxActiveFaults);
    }
  }

  /**
   * {@code delay}: the call is sent this much later (its deadline runs meanwhile).
   *
   * @param fixedDelay {@code fixed_delay}; empty for {@code header_delay}: the call's
   *     {@code x-envoy-fault-delay-request} header gives the delay in milliseconds (no header, no
   *     delay)
   * @param percentage the share of calls delayed; with {@code header_delay}, a call's
   *     {@code x-envoy-fault-delay-request-percentage} header may lower its numerator
   */
  public record Delay(Optional<Duration> fixedDelay, FaultFraction percentage) {
    /**
     * Checks the components.
     *
     * @param fixedDelay not negative
     * @param percentage the share
     * @throws IllegalArgumentException if the delay is negative
     */
    public Delay {
      Objects.requireNonNull(fixedDelay, "fixedDelay");
      Objects.requireNonNull(percentage, "percentage");
      if (fixedDelay.isPresent() && fixedDelay.get().isNegative()) {
        throw new IllegalArgumentException("fixedDelay must not be negative, got " + fixedDelay.get());
      }
    }
  }

  /**
   * {@code abort}: the call fails with {@code code} without sending anything; {@code OK} closes it
   * with OK and no message (gRFC A33, "200/OK Error Injection").
   *
   * @param code {@code grpc_status}, or {@code http_status} mapped as gRPC maps an HTTP status
   *     (gRFC A33); empty for {@code header_abort}: the call's
   *     {@code x-envoy-fault-abort-request} (HTTP) or {@code x-envoy-fault-abort-grpc-request}
   *     header gives the code (the HTTP one when both are there; neither, no abort)
   * @param percentage the share of calls failed; with {@code header_abort}, a call's
   *     {@code x-envoy-fault-abort-request-percentage} header may lower its numerator
   */
  public record Abort(Optional<Status.Code> code, FaultFraction percentage) {
    /**
     * Checks the components.
     *
     * @param code the code, or empty for the header's
     * @param percentage the share
     */
    public Abort {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(percentage, "percentage");
    }

    /**
     * The gRPC code gRPC gives an HTTP status (gRPC's HTTP-to-gRPC status mapping, as gRFC A33
     * asks): 400 and 431 INTERNAL, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 UNIMPLEMENTED,
     * 429, 502, 503 and 504 UNAVAILABLE, 1xx INTERNAL, any other (200 included) UNKNOWN.
     *
     * @param httpStatus the HTTP status
     * @return the gRPC code
     */
    public static Status.Code codeOfHttpStatus(int httpStatus) {
      if (httpStatus >= 100 && httpStatus < 200) {
        return Status.Code.INTERNAL;
      }
      switch (httpStatus) {
        case 400:
        case 431:
          return Status.Code.INTERNAL;
        case 401:
          return Status.Code.UNAUTHENTICATED;
        case 403:
          return Status.Code.PERMISSION_DENIED;
        case 404:
          return Status.Code.UNIMPLEMENTED;
        case 429:
        case 502:
        case 503:
        case 504:
          return Status.Code.UNAVAILABLE;
        default:
          return Status.Code.UNKNOWN;
      }
    }
  }
}
