package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteAction.MaxStreamDuration;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.IstioResources;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.TestBackend;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a route sets on each call, end to end over FakeAdsServer (LDS, RDS, CDS, EDS) to a real
 * backend that fails a known pattern ({@link PatternBackend}): the call's deadline (gRFC A31) and
 * its retries (gRFC A44), through gRPC's own method-config machinery.
 */
class PerRouteEndToEndTest {
  private static final String LISTENER = "service";
  private static final String ROUTES = "service-routes";
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final AtomicInteger callIds = new AtomicInteger();
  private PatternBackend backend;

  @AfterEach
  void stopBackend() throws InterruptedException {
    if (backend != null) {
      backend.close();
    }
  }

  // timeouts (gRFC A31)

  @Test
  void aRoutesMaxStreamDurationIsTheCallsDeadlineAndNeverExtendsTheApplications() throws Exception {
    serve("p", routes(vhost(route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(30, 0)).setGrpcTimeoutHeaderMax(seconds(2, 0)))))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertThat(call(channel, CallOptions.DEFAULT, 0, null)).isEqualTo(Status.Code.OK);
    assertThat(call(channel, CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS), 0, null))
        .isEqualTo(Status.Code.OK);

    List<Long> deadlines = backend.deadlines();
    assertThat(deadlines.get(0)).as("the route's grpc_timeout_header_max, 2 s").isBetween(SECOND, 2 * SECOND);
    assertThat(deadlines.get(1)).as("the application's 500 ms, not extended").isBetween(0L, SECOND / 2);
  }

  @Test
  void theListenersMaxStreamDurationAppliesWhereTheRouteSetsNoneAndZeroMeansNone() throws Exception {
    serve("p", routes(vhost(
        route(header("x-route", "none"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(seconds(0, 0)))),
        route(prefix("/"), action("p")))));
    ListenerBuilder listener = XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES);
    listener.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(seconds(3, 0)));
    ads.setListeners(listener.build());
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertThat(call(channel, CallOptions.DEFAULT, 0, null)).isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-route", "none"), CallOptions.DEFAULT, 0, null)).isEqualTo(Status.Code.OK);

    assertThat(backend.deadlines().get(0)).as("the listener's 3 s").isBetween(2 * SECOND, 3 * SECOND);
    assertThat(backend.deadlines().get(1)).as("the route's explicit 0: no deadline").isEqualTo(-1L);
  }

  @Test
  void aSubMillisecondTimeoutExpiresTheCallWhereGrpcJavaFailsItUnknown() throws Exception {
    serve("p", routes(vhost(route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(0, 500_000)))))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    // answered 50 ms late: a warm loopback call could otherwise beat 0.5 ms
    Status.Code code = call(withHeader(channel, "x-answer-after-ms", "50"), CallOptions.DEFAULT, 0, null);

    assertThat(code).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
  }

  @Test
  void hugeTimeoutsThatMeanUnlimitedWork() throws Exception {
    serve("p", routes(vhost(
        route(header("x-route", "max"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(seconds(315_576_000_000L, 999_999_999)))),
        route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(seconds(10_000_000, 0)))))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    assertThat(call(channel, CallOptions.DEFAULT, 0, null)).isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-route", "max"), CallOptions.DEFAULT, 0, null)).isEqualTo(Status.Code.OK);

    assertThat(backend.deadlines()).allSatisfy(left -> assertThat(left).isGreaterThan(100_000 * SECOND));
  }

  // retries (gRFC A44)

  @Test
  void aRoutesRetryPolicyRetriesTheCodesItNamesAndNoOther() throws Exception {
    serve("p", routes(vhost(route(prefix("/"), action("p").setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("unavailable,5xx").setNumRetries(UInt32Value.of(3))
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(0, 1_000_000))))))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    String twoFailures = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 2, null, twoFailures)).isEqualTo(Status.Code.OK);
    assertThat(backend.attempts(twoFailures)).isEqualTo(3);
    assertThat(backend.previousAttempts()).containsExactly("0", "1", "2");

    String internal = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 2, "INTERNAL", internal)).isEqualTo(Status.Code.INTERNAL);
    assertThat(backend.attempts(internal)).as("INTERNAL is not retried").isEqualTo(1);

    String fourFailures = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 4, null, fourFailures)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(backend.attempts(fourFailures)).as("num_retries 3: four attempts").isEqualTo(4);
  }

  @Test
  void aVirtualHostsRetryPolicyAppliesToRoutesWithoutOneWhichGrpcJavaIgnores() throws Exception {
    serve("p", routes(vhost(route(prefix("/"), action("p"))).toBuilder()
        .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable").setNumRetries(UInt32Value.of(2))
            .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder().setBaseInterval(seconds(0, 1_000_000))))
        .build()));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    String id = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 2, null, id)).isEqualTo(Status.Code.OK);
    assertThat(backend.attempts(id)).isEqualTo(3);
  }

  @Test
  void aRetryPolicyWithNoCodeGrpcRetriesOnRetriesNothing() throws Exception {
    serve("p", routes(vhost(route(prefix("/"), action("p").setRetryPolicy(RetryPolicy.newBuilder()
        .setRetryOn("5xx,gateway-error,connect-failure").setNumRetries(UInt32Value.of(3)))))));
    ManagedChannel channel = channel("xds:///" + LISTENER);

    String id = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 1, null, id)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(backend.attempts(id)).isEqualTo(1);
  }

  @Test
  void istiodsDefaultRetryHidesTwoUnavailableAttempts() throws Exception {
    String host = "echo.default.svc.cluster.local";
    backend = new PatternBackend("istio");
    String cluster = IstioResources.clusterName(host, 7070);
    ads.setClusters(IstioResources.cluster(host, 7070).build());
    ads.setEndpoints(XdsResources.endpoints(cluster)
        .locality("r", "z", "", l -> l.weight(1).endpoint("127.0.0.1", backend.port(), HEALTHY)).build());
    ads.setRoutes(IstioResources.routeConfiguration(host, 7070).build());
    ads.setListeners(IstioResources.listener(host, 7070).build());
    ManagedChannel channel = channel("xds:///" + host + ":7070");

    String hidden = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 2, null, hidden)).isEqualTo(Status.Code.OK);
    assertThat(backend.attempts(hidden)).isEqualTo(3);
    String cancelled = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 1, "CANCELLED", cancelled)).isEqualTo(Status.Code.OK);
    assertThat(backend.attempts(cancelled)).isEqualTo(2);
    String tooMany = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, 3, null, tooMany)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(backend.attempts(tooMany)).isEqualTo(3);
  }

  // helpers

  private String nextCallId() {
    return "call-" + callIds.incrementAndGet();
  }

  private Status.Code call(Channel channel, CallOptions options, int failFirst, String failCode) {
    return call(channel, options, failFirst, failCode, nextCallId());
  }

  /** One unary call whose first {@code failFirst} attempts fail with {@code failCode}. */
  static Status.Code call(Channel channel, CallOptions options, int failFirst, String failCode, String callId) {
    Metadata headers = new Metadata();
    headers.put(PatternBackend.CALL_ID, callId);
    headers.put(PatternBackend.FAIL_FIRST, Integer.toString(failFirst));
    if (failCode != null) {
      headers.put(PatternBackend.FAIL_CODE, failCode);
    }
    Channel withHeaders = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    try {
      ClientCalls.blockingUnaryCall(withHeaders.newCall(TestBackend.NAME_METHOD, options), new byte[0]);
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  private void serve(String clusterName, RouteConfiguration routes) throws Exception {
    backend = new PatternBackend(clusterName);
    ads.setClusters(XdsResources.cluster(clusterName).build());
    ads.setEndpoints(XdsResources.endpoints(clusterName)
        .locality("r", "z", "", l -> l.weight(1).endpoint("127.0.0.1", backend.port(), HEALTHY)).build());
    ads.setRoutes(routes);
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES).build());
  }

  private ManagedChannel channel(String target) {
    return bed.track(Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build());
  }

  static Channel withHeader(Channel channel, String name, String value) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value);
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  static RouteConfiguration routes(VirtualHost... hosts) {
    return RouteConfiguration.newBuilder().setName(ROUTES).addAllVirtualHosts(List.of(hosts)).build();
  }

  static VirtualHost vhost(Route... routes) {
    return VirtualHost.newBuilder().setName("vh").addDomains("*").addAllRoutes(List.of(routes)).build();
  }

  static Route route(RouteMatch match, RouteAction.Builder action) {
    return Route.newBuilder().setMatch(match).setRoute(action).build();
  }

  static RouteMatch prefix(String prefix) {
    return RouteMatch.newBuilder().setPrefix(prefix).build();
  }

  static RouteMatch header(String name, String value) {
    return RouteMatch.newBuilder().setPrefix("/").addHeaders(HeaderMatcher.newBuilder().setName(name)
        .setExactMatch(value)).build();
  }

  static RouteAction.Builder action(String cluster) {
    return RouteAction.newBuilder().setCluster(cluster);
  }

  static Duration seconds(long seconds, int nanos) {
    return Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }
}
