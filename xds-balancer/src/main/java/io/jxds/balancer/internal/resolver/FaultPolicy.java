package io.jxds.balancer.internal.resolver;

import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.FaultFraction;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * One fault filter's config for the calls of one route and cluster, made once per route table
 * (gRFC A33): what {@link #decide} needs per call, with the percentages in parts per million.
 *
 * <p>Per call, delay and abort are drawn independently (A33, "Evaluate Possibility Fraction"): a
 * draw uniform in [0, 1 000 000) below the share. With {@code header_delay} the delay is the
 * call's {@code x-envoy-fault-delay-request} (milliseconds) and its
 * {@code x-envoy-fault-delay-request-percentage} may lower the numerator; with
 * {@code header_abort} the code is the call's {@code x-envoy-fault-abort-request} (an HTTP status
 * in [200, 600), mapped to gRPC's code) or else its {@code x-envoy-fault-abort-grpc-request} (a
 * gRPC code in [0, 16]), and {@code x-envoy-fault-abort-request-percentage} may lower the
 * numerator. A header that is absent or not a valid number is ignored on its own (A33; grpc-java
 * drops the whole fault instead): an invalid percentage header keeps the configured share.
 */
final class FaultPolicy {
  static final Metadata.Key<String> DELAY = key("x-envoy-fault-delay-request");
  static final Metadata.Key<String> DELAY_PERCENTAGE = key("x-envoy-fault-delay-request-percentage");
  static final Metadata.Key<String> ABORT_HTTP = key("x-envoy-fault-abort-request");
  static final Metadata.Key<String> ABORT_GRPC = key("x-envoy-fault-abort-grpc-request");
  static final Metadata.Key<String> ABORT_PERCENTAGE = key("x-envoy-fault-abort-request-percentage");
  private static final int MILLION = 1_000_000;
  private static final long NONE = -1;
  private static final long HEADER = -2;

  /** The delay in nanoseconds; {@link #HEADER} for {@code header_delay}; {@link #NONE} for none. */
  private final long delayNanos;
  private final @Nullable FaultFraction delayShare;
  /** The abort's status; null for {@code header_abort} or none ({@link #abortShare} null). */
  private final @Nullable Status abort;
  private final @Nullable FaultFraction abortShare;
  private final long maxActiveFaults;

  private FaultPolicy(long delayNanos, @Nullable FaultFraction delayShare, @Nullable Status abort,
      @Nullable FaultFraction abortShare, long maxActiveFaults) {
    this.delayNanos = delayNanos;
    this.delayShare = delayShare;
    this.abort = abort;
    this.abortShare = abortShare;
    this.maxActiveFaults = maxActiveFaults;
  }

  /**
   * The policy of {@code config}, or null when it can fault no call: no delay and no abort, both at
   * 0 % (a header can only lower a share), or {@code max_active_faults} 0. Such a filter costs the
   * calls nothing.
   */
  static @Nullable FaultPolicy of(FaultConfig config) {
    long max = config.maxActiveFaults().orElse(Long.MAX_VALUE);
    FaultFraction delayShare = config.delay().map(FaultConfig.Delay::percentage)
        .filter(p -> p.perMillion() > 0).orElse(null);
    FaultFraction abortShare = config.abort().map(FaultConfig.Abort::percentage)
        .filter(p -> p.perMillion() > 0).orElse(null);
    long delayNanos = NONE;
    if (delayShare != null) {
      delayNanos = config.delay().get().fixedDelay().map(FaultPolicy::nanos).orElse(HEADER);
      if (delayNanos == 0) {
        delayShare = null; // a fixed delay of 0 delays nothing
      }
    }
    Status abort = abortShare == null ? null
        : config.abort().get().code().map(FaultPolicy::status).orElse(null);
    if (max == 0 || (delayShare == null && abortShare == null)) {
      return null;
    }
    return new FaultPolicy(delayNanos, delayShare, abort, abortShare, max);
  }

  long maxActiveFaults() {
    return maxActiveFaults;
  }

  /**
   * Draws this call's fault.
   *
   * @param headers the call's headers
   * @param random the draws' source
   * @return the fault, or null when the call gets none
   */
  @Nullable Fault decide(Metadata headers, RandomGenerator random) {
    long delay = 0;
    if (delayShare != null) {
      long nanos = delayNanos;
      int share = delayShare.perMillion();
      if (nanos == HEADER) {
        long millis = number(headers.get(DELAY), Long.MAX_VALUE / 1_000_000);
        nanos = millis < 0 ? 0 : millis * 1_000_000;
        share = share(headers, DELAY_PERCENTAGE, delayShare);
      }
      if (random.nextInt(MILLION) < share) {
        delay = nanos;
      }
    }
    Status status = null;
    if (abortShare != null) {
      Status configured = abort;
      int share = abortShare.perMillion();
      if (configured == null) {
        configured = headerAbort(headers);
        share = share(headers, ABORT_PERCENTAGE, abortShare);
      }
      if (random.nextInt(MILLION) < share) {
        status = configured;
      }
    }
    return delay == 0 && status == null ? null : new Fault(delay, status, maxActiveFaults);
  }

  private static @Nullable Status headerAbort(Metadata headers) {
    long http = number(headers.get(ABORT_HTTP), 599);
    if (http >= 200) {
      return status(FaultConfig.Abort.codeOfHttpStatus((int) http));
    }
    long grpc = number(headers.get(ABORT_GRPC), Status.Code.UNAUTHENTICATED.value());
    return grpc < 0 ? null : status(Status.fromCodeValue((int) grpc).getCode());
  }

  /** The share a percentage header asks for, capped to the configured one; the configured one if absent or invalid. */
  private static int share(Metadata headers, Metadata.Key<String> key, FaultFraction configured) {
    long numerator = number(headers.get(key), Long.MAX_VALUE);
    return numerator < 0 ? configured.perMillion() : configured.withNumerator(numerator);
  }

  /** A decimal number in [0, max], or -1 when absent, not a number or out of range. */
  static long number(@Nullable String value, long max) {
    if (value == null || value.isEmpty() || value.length() > 18) {
      return -1;
    }
    long n = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n >= 0 && n <= max ? n : -1;
  }

  private static Status status(Status.Code code) {
    return code == Status.Code.OK ? Status.OK
        : code.toStatus().withDescription("RPC terminated due to fault injection (gRFC A33)");
  }

  private static long nanos(java.time.Duration d) {
    return d.compareTo(java.time.Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : d.toNanos();
  }

  private static Metadata.Key<String> key(String name) {
    return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
  }

  /**
   * One call's fault.
   *
   * @param delayNanos how long the call waits before it is sent; 0 for none
   * @param abort the status it fails with (OK: closes with OK), or null for none
   * @param maxActiveFaults its filter's {@code max_active_faults}
   */
  record Fault(long delayNanos, @Nullable Status abort, long maxActiveFaults) {}
}
