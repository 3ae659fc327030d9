package io.jxds.api.internal.decode;

import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.grpc.Status;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.FaultFraction;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Validates a fault-injection filter's config ({@code HTTPFault}, gRFC A33), in a listener's
 * {@code http_filters} or in a {@code typed_per_filter_config} override. A broken rule is a NACK
 * naming the resource, the field path and the value.
 *
 * <ul>
 *   <li>{@code delay}: {@code fixed_delay} (a duration in [0, 315576000000 s]; negative is a NACK)
 *       or {@code header_delay}; neither is a NACK (Envoy requires one).
 *   <li>{@code abort}: {@code grpc_status} in [0, 16] (a code gRPC does not have is a NACK;
 *       grpc-java fails the calls with UNKNOWN instead), {@code http_status} in [200, 600) as Envoy
 *       requires, mapped to its gRPC code (gRFC A33), or {@code header_abort}; none is a NACK.
 *   <li>{@code percentage}: denominator {@code HUNDRED}, {@code TEN_THOUSAND} or {@code MILLION}
 *       (another is a NACK); the numerator read unsigned and capped to the denominator, so more
 *       than 100 % is 100 %, as Envoy and grpc-java do; unset is 0 %.
 *   <li>{@code max_active_faults} read unsigned; unset is no limit.
 *   <li>Not read (gRFC A33 defers or drops them): {@code upstream_cluster}, {@code headers},
 *       {@code downstream_nodes}, {@code response_rate_limit}, the {@code *_runtime} keys.
 * </ul>
 */
final class FaultDecoder {
  private static final int MAX_GRPC_CODE = Status.Code.UNAUTHENTICATED.value(); // 16

  private FaultDecoder() {}

  static FaultConfig decode(HTTPFault fault, String kind, String name, String at) throws XdsResourceException {
    Optional<FaultConfig.Delay> delay = fault.hasDelay()
        ? Optional.of(delay(fault.getDelay(), kind, name, at + ".delay")) : Optional.empty();
    Optional<FaultConfig.Abort> abort = fault.hasAbort()
        ? Optional.of(abort(fault.getAbort(), kind, name, at + ".abort")) : Optional.empty();
    OptionalLong max = fault.hasMaxActiveFaults()
        ? OptionalLong.of(Integer.toUnsignedLong(fault.getMaxActiveFaults().getValue())) : OptionalLong.empty();
    return new FaultConfig(delay, abort, max);
  }

  private static FaultConfig.Delay delay(FaultDelay delay, String kind, String name, String at)
      throws XdsResourceException {
    FaultFraction percentage = fraction(delay.hasPercentage(), delay.getPercentage(), kind, name, at);
    switch (delay.getFaultDelaySecifierCase()) {
      case FIXED_DELAY:
        java.time.Duration fixed = RoutePolicyDecoder.duration(delay.getFixedDelay(), kind, name, at + ".fixed_delay");
        return new FaultConfig.Delay(Optional.of(fixed), percentage);
      case HEADER_DELAY:
        return new FaultConfig.Delay(Optional.empty(), percentage);
      default:
        throw Nack.of(kind, name, at + " must set fixed_delay or header_delay", "neither");
    }
  }

  private static FaultConfig.Abort abort(FaultAbort abort, String kind, String name, String at)
      throws XdsResourceException {
    FaultFraction percentage = fraction(abort.hasPercentage(), abort.getPercentage(), kind, name, at);
    switch (abort.getErrorTypeCase()) {
      case GRPC_STATUS:
        int code = abort.getGrpcStatus();
        if (code < 0 || code > MAX_GRPC_CODE) {
          throw Nack.of(kind, name, at + ".grpc_status must be a gRPC status code in [0, 16]",
              Integer.toUnsignedString(code));
        }
        return new FaultConfig.Abort(Optional.of(Status.fromCodeValue(code).getCode()), percentage);
      case HTTP_STATUS:
        int http = abort.getHttpStatus();
        if (http < 200 || http >= 600) {
          throw Nack.of(kind, name, at + ".http_status must be in [200, 600)", Integer.toUnsignedString(http));
        }
        return new FaultConfig.Abort(Optional.of(FaultConfig.Abort.codeOfHttpStatus(http)), percentage);
      case HEADER_ABORT:
        return new FaultConfig.Abort(Optional.empty(), percentage);
      default:
        throw Nack.of(kind, name, at + " must set grpc_status, http_status or header_abort", "none");
    }
  }

  private static FaultFraction fraction(boolean set, FractionalPercent percent, String kind,
      String name, String at) throws XdsResourceException {
    if (!set) {
      return FaultFraction.NEVER;
    }
    long denominator;
    switch (percent.getDenominator()) {
      case HUNDRED:
        denominator = 100;
        break;
      case TEN_THOUSAND:
        denominator = 10_000;
        break;
      case MILLION:
        denominator = 1_000_000;
        break;
      default:
        throw Nack.of(kind, name, at + ".percentage.denominator must be HUNDRED, TEN_THOUSAND or MILLION",
            percent.getDenominatorValue());
    }
    long numerator = Math.min(Integer.toUnsignedLong(percent.getNumerator()), denominator);
    return new FaultFraction(numerator, denominator);
  }
}
