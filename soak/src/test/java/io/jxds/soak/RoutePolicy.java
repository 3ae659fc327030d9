package io.jxds.soak;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction;

/**
 * What a soak route sets besides its clusters: a timeout (gRFC A31, {@code max_stream_duration},
 * far longer than a soak RPC takes, so it may never fail one), a {@code retry_policy} (gRFC A44:
 * UNAVAILABLE and CANCELLED, {@code num_retries}, 10 ms base back-off) and a {@code hash_policy} on
 * {@link RouteModel#USER_HEADER} (gRFC A42, which a RING_HASH cluster uses).
 *
 * @param timeoutMillis 0 for none
 * @param retries {@code num_retries}, 0 for no retry policy
 * @param hash whether the route hashes on the user header
 */
record RoutePolicy(int timeoutMillis, int retries, boolean hash) {
  static final RoutePolicy NONE = new RoutePolicy(0, 0, false);

  static RetryPolicy retryPolicy(int numRetries) {
    return RetryPolicy.newBuilder().setRetryOn("unavailable,cancelled").setNumRetries(UInt32Value.of(numRetries))
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(Duration.newBuilder()
            .setNanos(10_000_000)).setMaxInterval(Duration.newBuilder().setNanos(100_000_000)))
        .build();
  }

  RouteAction.Builder applyTo(RouteAction.Builder action) {
    if (timeoutMillis > 0) {
      action.setMaxStreamDuration(RouteAction.MaxStreamDuration.newBuilder().setMaxStreamDuration(Duration.newBuilder()
          .setSeconds(timeoutMillis / 1000).setNanos(timeoutMillis % 1000 * 1_000_000)));
    }
    if (retries > 0) {
      action.setRetryPolicy(retryPolicy(retries));
    }
    if (hash) {
      action.addHashPolicy(RouteAction.HashPolicy.newBuilder().setHeader(RouteAction.HashPolicy.Header.newBuilder()
          .setHeaderName(RouteModel.USER_HEADER)));
    }
    return action;
  }

  /** For traces: {@code  timeout 2000ms retries 3 hash}, empty for none. */
  String describe() {
    return (timeoutMillis > 0 ? " timeout " + timeoutMillis + "ms" : "") + (retries > 0 ? " retries " + retries : "")
        + (hash ? " hash" : "");
  }
}
