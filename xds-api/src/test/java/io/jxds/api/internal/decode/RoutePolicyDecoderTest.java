package io.jxds.api.internal.decode;

import static io.jxds.api.internal.decode.RouteConfigurationDecoderTest.cluster;
import static io.jxds.api.internal.decode.RouteConfigurationDecoderTest.config;
import static io.jxds.api.internal.decode.RouteConfigurationDecoderTest.host;
import static io.jxds.api.internal.decode.RouteConfigurationDecoderTest.prefix;
import static io.jxds.api.internal.decode.RouteConfigurationDecoderTest.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteAction.HashPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction.MaxStreamDuration;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatchAndSubstitute;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.grpc.Status;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.route.Route;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.XdsResources;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The per-route settings of a RouteConfiguration: timeouts (gRFC A31), retries (gRFC A44) and hash
 * policies (gRFC A42), each rule valid and invalid.
 */
class RoutePolicyDecoderTest {
  private static final String R0 = "virtual_hosts[0].routes[0].route";

  // timeouts (gRFC A31)

  @Test
  void grpcTimeoutHeaderMaxWinsOverMaxStreamDuration() throws Exception {
    Route r = first(action().setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(5, 0)).setGrpcTimeoutHeaderMax(seconds(1, 500_000_000))));
    assertThat(r.maxStreamDuration()).contains(java.time.Duration.ofMillis(1500));
  }

  @Test
  void maxStreamDurationAloneIsTheTimeout() throws Exception {
    Route r = first(action().setMaxStreamDuration(MaxStreamDuration.newBuilder().setMaxStreamDuration(seconds(3, 0))));
    assertThat(r.maxStreamDuration()).contains(java.time.Duration.ofSeconds(3));
  }

  @Test
  void noMaxStreamDurationLeavesTheListenersAndZeroMeansNone() throws Exception {
    assertThat(first(action()).maxStreamDuration()).isEmpty();
    assertThat(first(action().setMaxStreamDuration(MaxStreamDuration.getDefaultInstance())).maxStreamDuration())
        .isEmpty();
    // istiod: max_stream_duration 0 for a VirtualService without a timeout: no timeout at all.
    assertThat(first(action().setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(0, 0)))).maxStreamDuration()).contains(java.time.Duration.ZERO);
  }

  @Test
  void subMillisecondAndHugeDurationsAreKeptExactly() throws Exception {
    assertThat(first(action().setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(0, 500_000)))).maxStreamDuration()).contains(java.time.Duration.ofNanos(500_000));
    assertThat(first(action().setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(315_576_000_000L, 999_999_999)))).maxStreamDuration())
        .contains(java.time.Duration.ofSeconds(315_576_000_000L, 999_999_999));
  }

  @Test
  void aNegativeOrOverflowingDurationIsRejected() {
    assertNack(action().setMaxStreamDuration(MaxStreamDuration.newBuilder().setMaxStreamDuration(seconds(-1, 0))),
        R0 + ".max_stream_duration.max_stream_duration must be a duration in [0, 315576000000s], "
            + "got {seconds: -1, nanos: 0}");
    assertNack(action().setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setGrpcTimeoutHeaderMax(seconds(315_576_000_001L, 0))),
        R0 + ".max_stream_duration.grpc_timeout_header_max must be a duration in [0, 315576000000s], "
            + "got {seconds: 315576000001, nanos: 0}");
    assertNack(action().setMaxStreamDuration(MaxStreamDuration.newBuilder().setMaxStreamDuration(seconds(1, -5))),
        R0 + ".max_stream_duration.max_stream_duration must be a duration in [0, 315576000000s], "
            + "got {seconds: 1, nanos: -5}");
  }

  @Test
  void aNegativeListenerMaxStreamDurationIsRejected() {
    ListenerBuilder l = XdsResources.listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(seconds(-2, 0)));
    assertThatThrownBy(() -> ListenerDecoder.decode(l.build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("listener \"foo\": api_listener.api_listener.common_http_protocol_options.max_stream_duration "
            + "must be a duration in [0, 315576000000s], got {seconds: -2, nanos: 0}");
  }

  // retries (gRFC A44)

  @Test
  void retryOnKeepsTheCodesGrpcRetriesOnAndIgnoresTheRest() throws Exception {
    Route r = first(action().setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn(" 5xx,unavailable ,deadline-exceeded,bogus,cancelled,internal,resource-exhausted,unavailable")));
    io.jxds.api.model.route.RetryPolicy p = r.retryPolicy().orElseThrow();
    assertThat(p.retryOn()).containsExactly(Status.Code.CANCELLED, Status.Code.DEADLINE_EXCEEDED,
        Status.Code.RESOURCE_EXHAUSTED, Status.Code.INTERNAL, Status.Code.UNAVAILABLE);
    assertThat(p.numRetries()).isEqualTo(1);
    assertThat(p.baseInterval()).isEqualTo(java.time.Duration.ofMillis(25));
    assertThat(p.maxInterval()).isEqualTo(java.time.Duration.ofMillis(250));
  }

  @Test
  void istiodsDefaultRetryIsUnavailableAndCancelledThreeAttempts() throws Exception {
    Route r = first(action().setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes")
        .setNumRetries(UInt32Value.of(2))));
    io.jxds.api.model.route.RetryPolicy p = r.retryPolicy().orElseThrow();
    assertThat(p.retryOn()).containsExactly(Status.Code.CANCELLED, Status.Code.UNAVAILABLE);
    assertThat(p.maxAttempts()).isEqualTo(3);
  }

  @Test
  void numRetriesIsUnsignedAndZeroIsRejected() throws Exception {
    assertThat(first(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setNumRetries(UInt32Value.of(-1)))).retryPolicy().orElseThrow().numRetries()).isEqualTo(4_294_967_295L);
    assertNack(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setNumRetries(UInt32Value.of(0))), R0 + ".retry_policy.num_retries must be at least 1, got 0");
  }

  @Test
  void backOffIsCheckedAndClampedToOneMillisecond() throws Exception {
    io.jxds.api.model.route.RetryPolicy p = first(action().setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("unavailable").setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder()
            .setBaseInterval(seconds(0, 100_000))))).retryPolicy().orElseThrow();
    assertThat(p.baseInterval()).isEqualTo(java.time.Duration.ofMillis(1));
    assertThat(p.maxInterval()).isEqualTo(java.time.Duration.ofMillis(10));
    p = first(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(0, 50_000_000))
            .setMaxInterval(seconds(2, 0))))).retryPolicy().orElseThrow();
    assertThat(p.baseInterval()).isEqualTo(java.time.Duration.ofMillis(50));
    assertThat(p.maxInterval()).isEqualTo(java.time.Duration.ofSeconds(2));

    String backOff = R0 + ".retry_policy.retry_back_off";
    assertNack(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setRetryBackOff(RetryPolicy.RetryBackOff.getDefaultInstance())),
        backOff + ".base_interval must be set", "unset");
    assertNack(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(0, 0)))),
        backOff + ".base_interval must be positive", "{seconds: 0, nanos: 0}");
    assertNack(action().setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(1, 0))
            .setMaxInterval(seconds(0, 500_000_000)))),
        backOff + ".max_interval must be at least base_interval (1s)", "{seconds: 0, nanos: 500000000}");
  }

  @Test
  void aVirtualHostsRetryPolicyIsDecodedToo() throws Exception {
    VirtualHost vh = host(route(prefix("/"), cluster("c"))).toBuilder()
        .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("internal").setNumRetries(UInt32Value.of(3))).build();
    io.jxds.api.model.route.VirtualHost decoded = RouteConfigurationDecoder.decode(config(vh)).virtualHosts().get(0);
    assertThat(decoded.retryPolicy().orElseThrow().retryOn()).containsExactly(Status.Code.INTERNAL);
    assertThat(decoded.routes().get(0).retryPolicy()).isEmpty();

    VirtualHost bad = vh.toBuilder().setRetryPolicy(RetryPolicy.newBuilder().setNumRetries(UInt32Value.of(0)))
        .build();
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(config(bad)))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("RouteConfiguration \"rc\": virtual_hosts[0].retry_policy.num_retries must be at least 1, got 0");
  }

  // hash policies (gRFC A42)

  @Test
  void headerAndChannelIdPoliciesAreKeptInOrderAndOthersLeftOut() throws Exception {
    Route r = first(action()
        .addHashPolicy(HashPolicy.newBuilder().setCookie(HashPolicy.Cookie.newBuilder().setName("session")))
        .addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder().setHeaderName("X-User")))
        .addHashPolicy(HashPolicy.newBuilder().setFilterState(HashPolicy.FilterState.newBuilder()
            .setKey("io.grpc.channel_id")).setTerminal(true))
        .addHashPolicy(HashPolicy.newBuilder().setFilterState(HashPolicy.FilterState.newBuilder().setKey("other")))
        .addHashPolicy(HashPolicy.newBuilder().setConnectionProperties(
            HashPolicy.ConnectionProperties.newBuilder().setSourceIp(true))));
    assertThat(r.hashPolicies()).containsExactly(
        new io.jxds.api.model.route.HashPolicy.Header("x-user", Optional.empty(), false),
        new io.jxds.api.model.route.HashPolicy.ChannelId(true));
  }

  @Test
  void aHeaderRewriteIsRe2AndEnvoysSubstitutionSyntax() throws Exception {
    Route r = first(action().addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder()
        .setHeaderName("x-user").setRegexRewrite(RegexMatchAndSubstitute.newBuilder()
            .setPattern(RegexMatcher.newBuilder().setRegex("^user-([0-9]+)-.*$")).setSubstitution("id \\1 $")))));
    var h = (io.jxds.api.model.route.HashPolicy.Header) r.hashPolicies().get(0);
    assertThat(h.rewrite().orElseThrow().rewrite("user-42-eu")).isEqualTo("id 42 $");
  }

  @Test
  void aBadRegexOrSubstitutionOrEmptyHeaderNameIsRejected() {
    String h = R0 + ".hash_policy[0].header";
    assertNack(action().addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder()
        .setHeaderName("x").setRegexRewrite(RegexMatchAndSubstitute.newBuilder()
            .setPattern(RegexMatcher.newBuilder().setRegex("(a")).setSubstitution("b")))),
        h + ".regex_rewrite.pattern.regex must be an RE2 regular expression",
        "\"(a\" (error parsing regexp: missing closing ): `(a`)");
    assertNack(action().addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.newBuilder()
        .setHeaderName("x").setRegexRewrite(RegexMatchAndSubstitute.newBuilder()
            .setPattern(RegexMatcher.newBuilder().setRegex("(a)")).setSubstitution("\\2")))),
        h + ".regex_rewrite.substitution must be a valid RE2 rewrite",
        "\"\\2\" (\\2 names a group the regex lacks (it has 1))");
    assertNack(action().addHashPolicy(HashPolicy.newBuilder().setHeader(HashPolicy.Header.getDefaultInstance())),
        h + ".header_name must not be empty", "\"\"");
  }

  // helpers

  private static Route first(RouteAction.Builder action) throws XdsResourceException {
    return RouteConfigurationDecoder.decode(config(host(route(prefix("/"), action)))).virtualHosts().get(0)
        .routes().get(0);
  }

  private static RouteAction.Builder action() {
    return cluster("c");
  }

  private static Duration seconds(long seconds, int nanos) {
    return Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }

  private static void assertNack(RouteAction.Builder action, String expected) {
    RouteConfiguration routes = config(host(route(prefix("/"), action)));
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(routes))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("RouteConfiguration \"rc\": " + expected);
  }

  private static void assertNack(RouteAction.Builder action, String field, String got) {
    assertNack(action, field + ", got " + got);
  }
}
