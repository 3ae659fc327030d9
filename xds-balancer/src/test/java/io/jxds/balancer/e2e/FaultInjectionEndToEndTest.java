package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.action;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.header;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.prefix;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.route;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.routes;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.seconds;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.vhost;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.withHeader;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.Any;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.jxds.balancer.internal.resolver.ListenerRouteSource;
import io.jxds.balancer.internal.resolver.RouteSource;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault injection (gRFC A33) through the listener's filter chain and its overrides (gRFC A39), end
 * to end over FakeAdsServer to a real backend ({@link PatternBackend}, which counts the attempts it
 * sees: a call a fault aborts never reaches it). Draws come from a seeded random, and the rate
 * bounds are many standard deviations wide.
 */
class FaultInjectionEndToEndTest {
  private static final String LISTENER = "service";
  private static final String ROUTES = "service-routes";

  @RegisterExtension final XdsTestBed bed = new XdsTestBed();
  private final FakeAdsServer ads = bed.ads();
  private final AtomicInteger callIds = new AtomicInteger();
  private final RandomGenerator random = TestRandom.seeded(33);
  private PatternBackend backend;
  private PatternBackend other;

  @AfterEach
  void stopBackends() throws InterruptedException {
    if (backend != null) {
      backend.close();
    }
    if (other != null) {
      other.close();
    }
  }

  @Test
  void aListenersAbortFailsTheCallWithItsCodeWithoutSendingIt() throws Exception {
    serve(routes(vhost(route(prefix("/"), action("p")))), fault(null, abort(Status.Code.INVALID_ARGUMENT, 100)));
    Channel channel = channel();

    String id = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, id)).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(backend.attempts(id)).as("nothing was sent").isZero();
  }

  @Test
  void aFixedDelayHoldsTheCallBeforeItIsSentAndTheDeadlineStillRuns() throws Exception {
    serve(routes(vhost(route(prefix("/"), action("p")))), fault(delay(Duration.ofMillis(300), 100), null));
    Channel channel = channel();
    assertThat(call(channel, CallOptions.DEFAULT, nextCallId())).isEqualTo(Status.Code.OK); // connected

    long start = System.nanoTime();
    String id = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT, id)).isEqualTo(Status.Code.OK);
    assertThat(System.nanoTime() - start).as("delayed 300 ms").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS
        .toNanos(300));
    assertThat(backend.attempts(id)).isEqualTo(1);

    String expired = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT.withDeadlineAfter(50, TimeUnit.MILLISECONDS), expired))
        .isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(backend.attempts(expired)).as("expired during the delay: never sent").isZero();
  }

  @Test
  void overridesApplyRouteOverVirtualHostOverListenerAndWeightedClusterOverRoute() throws Exception {
    other = new PatternBackend("q");
    VirtualHost host = vhost(
        Route.newBuilder().setMatch(header("x-route", "quiet")).setRoute(action("p"))
            .putTypedPerFilterConfig("fault", Any.pack(fault(null, abort(Status.Code.ABORTED, 0)))).build(),
        Route.newBuilder().setMatch(header("x-route", "wrapped")).setRoute(action("p"))
            .putTypedPerFilterConfig("fault", Any.pack(FilterConfig.newBuilder().setIsOptional(true)
                .setConfig(Any.pack(fault(null, abort(Status.Code.NOT_FOUND, 100)))).build())).build(),
        Route.newBuilder().setMatch(header("x-route", "weighted")).setRoute(RouteAction.newBuilder()
            .setWeightedClusters(WeightedCluster.newBuilder().addClusters(WeightedCluster.ClusterWeight.newBuilder()
                .setName("q").setWeight(UInt32Value.of(1))
                .putTypedPerFilterConfig("fault", Any.pack(fault(null, abort(Status.Code.DATA_LOSS, 100)))))))
            .build(),
        route(prefix("/"), action("p")))
        .toBuilder()
        .putTypedPerFilterConfig("fault", Any.pack(fault(null, abort(Status.Code.PERMISSION_DENIED, 100))))
        .putTypedPerFilterConfig("absent-from-the-listener", Any.pack(fault(null, abort(Status.Code.INTERNAL, 100))))
        .putTypedPerFilterConfig("cors", Any.pack(Struct.getDefaultInstance()))
        .build();
    serve(routes(host), fault(null, abort(Status.Code.UNAVAILABLE, 100)));
    ads.setClusters(XdsResources.cluster("p").build(), XdsResources.cluster("q").build());
    ads.setEndpoints(endpoints("p", backend), endpoints("q", other));
    Channel channel = channel();

    assertThat(call(channel, CallOptions.DEFAULT, nextCallId())).as("the virtual host's over the listener's")
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(call(withHeader(channel, "x-route", "quiet"), CallOptions.DEFAULT, nextCallId()))
        .as("the route's 0 %").isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-route", "wrapped"), CallOptions.DEFAULT, nextCallId()))
        .as("a FilterConfig wrapper").isEqualTo(Status.Code.NOT_FOUND);
    assertThat(call(withHeader(channel, "x-route", "weighted"), CallOptions.DEFAULT, nextCallId()))
        .as("the weighted cluster's").isEqualTo(Status.Code.DATA_LOSS);
  }

  @Test
  void headerControlledFaultsReadTheCallsHeaders() throws Exception {
    HTTPFault byHeaders = HTTPFault.newBuilder()
        .setDelay(FaultDelay.newBuilder().setHeaderDelay(FaultDelay.HeaderDelay.getDefaultInstance())
            .setPercentage(percent(100, DenominatorType.HUNDRED)))
        .setAbort(FaultAbort.newBuilder().setHeaderAbort(FaultAbort.HeaderAbort.getDefaultInstance())
            .setPercentage(percent(100, DenominatorType.HUNDRED)))
        .build();
    serve(routes(vhost(route(prefix("/"), action("p")))), byHeaders);
    Channel channel = channel();

    assertThat(call(channel, CallOptions.DEFAULT, nextCallId())).as("no header, no fault").isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-envoy-fault-abort-grpc-request", "5"), CallOptions.DEFAULT,
        nextCallId())).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(call(withHeader(channel, "x-envoy-fault-abort-request", "503"), CallOptions.DEFAULT, nextCallId()))
        .as("an HTTP status, mapped").isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(call(withHeader(withHeader(channel, "x-envoy-fault-abort-grpc-request", "5"),
        "x-envoy-fault-abort-request-percentage", "0"), CallOptions.DEFAULT, nextCallId()))
        .as("the header's 0 %").isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-envoy-fault-abort-grpc-request", "abc"), CallOptions.DEFAULT,
        nextCallId())).as("an invalid header is ignored").isEqualTo(Status.Code.OK);
    assertThat(call(withHeader(channel, "x-envoy-fault-delay-request", "5000"),
        CallOptions.DEFAULT.withDeadlineAfter(100, TimeUnit.MILLISECONDS), nextCallId()))
        .as("a 5 s delay from the header").isEqualTo(Status.Code.DEADLINE_EXCEEDED);
  }

  @Test
  void theAbortRateIsThePercentage() throws Exception {
    serve(routes(vhost(route(prefix("/"), action("p")))),
        fault(null, FaultAbort.newBuilder().setGrpcStatus(Status.Code.UNAVAILABLE.value())
            .setPercentage(percent(2_500, DenominatorType.TEN_THOUSAND)).build()));
    Channel channel = channel();

    int aborted = 0;
    for (int i = 0; i < 400; i++) {
      if (call(channel, CallOptions.DEFAULT, nextCallId()) == Status.Code.UNAVAILABLE) {
        aborted++;
      }
    }
    // 25 % of 400: mean 100, standard deviation 8.7; the bounds are more than 4.5 deviations away.
    assertThat(aborted).isBetween(60, 140);
  }

  @Test
  void maxActiveFaultsLetsCallsPastTheLimitRunUnfaulted() throws Exception {
    HTTPFault slow = fault(delay(Duration.ofSeconds(30), 100), null).toBuilder()
        .setMaxActiveFaults(UInt32Value.of(1)).build();
    serve(routes(vhost(
        Route.newBuilder().setMatch(header("x-route", "warm-up")).setRoute(action("p"))
            .putTypedPerFilterConfig("fault", Any.pack(fault(null, null))).build(),
        route(prefix("/"), action("p")))), slow);
    Channel channel = channel();
    assertThat(call(withHeader(channel, "x-route", "warm-up"), CallOptions.DEFAULT, nextCallId()))
        .isEqualTo(Status.Code.OK); // the channel routes: a call's fault now starts with the call

    ListenableFuture<byte[]> delayed = ClientCalls.futureUnaryCall(
        channel.newCall(TestBackend.NAME_METHOD, CallOptions.DEFAULT), new byte[0]);
    String id = nextCallId();
    assertThat(call(channel, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), id))
        .as("one call is in a fault, the limit: this one is not delayed").isEqualTo(Status.Code.OK);
    assertThat(delayed.isDone()).as("the first call is still delayed").isFalse();
    delayed.cancel(true);
    Poll.until("the cancelled call gives its place back", Duration.ofSeconds(10), () -> {
      String next = nextCallId();
      return call(channel, CallOptions.DEFAULT.withDeadlineAfter(100, TimeUnit.MILLISECONDS), next)
          == Status.Code.DEADLINE_EXCEEDED && backend.attempts(next) == 0;
    });
  }

  @Test
  void filtersRunInTheListenersOrder() throws Exception {
    backend = new PatternBackend("p");
    ads.setClusters(XdsResources.cluster("p").build());
    ads.setEndpoints(endpoints("p", backend));
    ads.setRoutes(routes(vhost(route(prefix("/"), action("p")))));
    ListenerBuilder listener = XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES)
        .faultFilter("first", fault(null, abort(Status.Code.OUT_OF_RANGE, 100)))
        .faultFilter("second", fault(null, abort(Status.Code.ALREADY_EXISTS, 100)));
    ads.setListeners(listener.build());
    Channel channel = channel();

    assertThat(call(channel, CallOptions.DEFAULT, nextCallId())).isEqualTo(Status.Code.OUT_OF_RANGE);
  }

  @Test
  void anOptionalFilterJxdsDoesNotKnowIsSkipped() throws Exception {
    backend = new PatternBackend("p");
    ads.setClusters(XdsResources.cluster("p").build());
    ads.setEndpoints(endpoints("p", backend));
    ads.setRoutes(routes(vhost(route(prefix("/"), action("p")))));
    ListenerBuilder listener = XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES);
    listener.httpConnectionManager()
        .addHttpFilters(HttpFilter.newBuilder().setName("unknown").setIsOptional(true)
            .setTypedConfig(Any.pack(Struct.getDefaultInstance())))
        .addHttpFilters(HttpFilter.newBuilder().setName("fault")
            .setTypedConfig(Any.pack(fault(null, abort(Status.Code.UNAUTHENTICATED, 100)))))
        .addHttpFilters(HttpFilter.newBuilder().setName(ListenerBuilder.ROUTER_FILTER_NAME)
            .setTypedConfig(Any.pack(io.envoyproxy.envoy.extensions.filters.http.router.v3.Router
                .getDefaultInstance())));
    ads.setListeners(listener.build());

    assertThat(call(channel(), CallOptions.DEFAULT, nextCallId())).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  // helpers

  private String nextCallId() {
    return "call-" + callIds.incrementAndGet();
  }

  private Status.Code call(Channel channel, CallOptions options, String id) {
    return PerRouteEndToEndTest.call(channel, options, 0, null, id);
  }

  private void serve(RouteConfiguration routes, HTTPFault listenerFault) throws Exception {
    backend = new PatternBackend("p");
    ads.setClusters(XdsResources.cluster("p").build());
    ads.setEndpoints(endpoints("p", backend));
    ads.setRoutes(routes);
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES).faultFilter("fault", listenerFault)
        .build());
  }

  private static io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment endpoints(String cluster,
      PatternBackend b) {
    return XdsResources.endpoints(cluster)
        .locality("r", "z", "", l -> l.weight(1).endpoint("127.0.0.1", b.port(), HEALTHY)).build();
  }

  private ManagedChannel channel() {
    return bed.track(Grpc.newChannelBuilder("xds:///" + LISTENER, InsecureChannelCredentials.create())
        .setNameResolverArg(RouteSource.FACTORY_ARG, ListenerRouteSource.factory(() -> random))
        .build());
  }

  static HTTPFault fault(FaultDelay delay, FaultAbort abort) {
    HTTPFault.Builder b = HTTPFault.newBuilder();
    if (delay != null) {
      b.setDelay(delay);
    }
    if (abort != null) {
      b.setAbort(abort);
    }
    return b.build();
  }

  static FaultDelay delay(Duration fixed, int percent) {
    return FaultDelay.newBuilder().setFixedDelay(seconds(fixed.getSeconds(), fixed.getNano()))
        .setPercentage(percent(percent, DenominatorType.HUNDRED)).build();
  }

  static FaultAbort abort(Status.Code code, int percent) {
    return FaultAbort.newBuilder().setGrpcStatus(code.value()).setPercentage(percent(percent, DenominatorType.HUNDRED))
        .build();
  }

  static FractionalPercent percent(int numerator, DenominatorType denominator) {
    return FractionalPercent.newBuilder().setNumerator(numerator).setDenominator(denominator).build();
  }
}
