package io.jxds.balancer.e2e;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.action;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.prefix;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.route;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.routes;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.seconds;
import static io.jxds.balancer.e2e.PerRouteEndToEndTest.vhost;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction.MaxStreamDuration;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.jxds.testing.FakeAdsServer;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.Poll;
import io.jxds.testing.RecordedRequest;
import io.jxds.testing.XdsResources;
import io.jxds.testing.XdsTestBed;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Per-route settings across updates, end to end over FakeAdsServer to a real backend: a route
 * configuration NACKed for {@code num_retries: 0} (gRFC A44) leaves the earlier routes serving; a
 * listener whose only change is its {@code max_stream_duration} (gRFC A31) gives new calls its new
 * deadline.
 */
class PerRouteUpdateEndToEndTest {
  private static final String LISTENER = "service";
  private static final String ROUTES = "service-routes";
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final Duration WAIT = Duration.ofSeconds(20);

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

  @Test
  void aRouteWithNumRetriesZeroIsNackedNamingTheFieldAndTheEarlierRoutesKeepServing() throws Exception {
    serve(routes(vhost(route(prefix("/"), action("p").setMaxStreamDuration(MaxStreamDuration.newBuilder()
        .setMaxStreamDuration(seconds(2, 0)))))));
    ManagedChannel channel = channel();
    assertThat(call(channel)).isEqualTo(Status.Code.OK);

    ads.setRoutes(routes(vhost(route(prefix("/"), action("p")
        .setMaxStreamDuration(MaxStreamDuration.newBuilder().setMaxStreamDuration(seconds(30, 0)))
        .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable").setNumRetries(UInt32Value.of(0)))))));
    RecordedRequest nack = ads.requests().awaitNack(FakeAdsServer.ROUTE_TYPE_URL, WAIT);

    assertThat(nack.errorMessage()).contains(ROUTES).contains("num_retries").contains("0");
    assertThat(call(channel)).isEqualTo(Status.Code.OK);
    List<Long> deadlines = backend.deadlines();
    assertThat(deadlines.get(deadlines.size() - 1)).as("the earlier route's 2 s, not the NACKed one's 30 s")
        .isBetween(SECOND, 2 * SECOND);
  }

  @Test
  void aListenerWhoseOnlyChangeIsItsMaxStreamDurationGivesNewCallsTheNewDeadline() throws Exception {
    serve(routes(vhost(route(prefix("/"), action("p")))));
    ads.setListeners(listenerWithTimeout(30));
    ManagedChannel channel = channel();
    Poll.until("a call with the listener's 30 s", WAIT, () -> call(channel) == Status.Code.OK
        && lastDeadline() > 20 * SECOND);

    ads.setListeners(listenerWithTimeout(2));

    Poll.until(() -> "a call with the listener's new 2 s; the last call's deadline " + lastDeadline() + " ns", WAIT,
        () -> call(channel) == Status.Code.OK && lastDeadline() <= 2 * SECOND);
    assertThat(lastDeadline()).isGreaterThan(SECOND);
  }

  private static io.envoyproxy.envoy.config.listener.v3.Listener listenerWithTimeout(long seconds) {
    ListenerBuilder listener = XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES);
    listener.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(seconds(seconds, 0)));
    return listener.build();
  }

  private long lastDeadline() {
    List<Long> deadlines = backend.deadlines();
    return deadlines.get(deadlines.size() - 1);
  }

  private Status.Code call(ManagedChannel channel) {
    return PerRouteEndToEndTest.call(channel, CallOptions.DEFAULT, 0, null, "call-" + callIds.incrementAndGet());
  }

  private void serve(RouteConfiguration routes) throws Exception {
    backend = new PatternBackend("p");
    ads.setClusters(XdsResources.cluster("p").build());
    ads.setEndpoints(XdsResources.endpoints("p")
        .locality("r", "z", "", l -> l.weight(1).endpoint("127.0.0.1", backend.port(), HEALTHY)).build());
    ads.setRoutes(routes);
    ads.setListeners(XdsResources.listener(LISTENER).rdsRouteConfig(ROUTES).build());
  }

  private ManagedChannel channel() {
    return bed.track(Grpc.newChannelBuilder("xds:///" + LISTENER, InsecureChannelCredentials.create()).build());
  }
}
