package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.testing.TestRandom;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** A virtual host's routes as the resolver asks them, once per call (gRFC A28). */
class VirtualHostRoutesTest {
  private static final String WHERE = "xds:///payments: listener payments";

  @Test
  void oneMatchAllRouteAnswersEveryCallWithTheSameChoiceWithoutADraw() {
    AtomicInteger asked = new AtomicInteger();
    VirtualHostRoutes routes = new VirtualHostRoutes(host(new Route("all",
        RouteMatch.path(new StringMatcher.Prefix("/", false)), new RouteAction.Cluster("c"))), () -> {
          asked.incrementAndGet();
          return TestRandom.seeded(1);
        }, WHERE);

    RouteChoice first = routes.choose(call("echo.Echo/Say"));
    assertThat(first).isEqualTo(new RouteChoice.ToCluster("c"));
    assertThat(routes.choose(call("x-version", "v2"))).isSameAs(first);
    assertThat(asked).hasValue(0);
  }

  @Test
  void headerRoutesAndAWeightedSplitChooseByCall() {
    VirtualHostRoutes routes = new VirtualHostRoutes(host(
        new Route("v2", new RouteMatch(new StringMatcher.Prefix("", false), List.of(HeaderMatcher.of("x-version",
            new HeaderMatcher.StringMatch(new StringMatcher.Exact("v2", false)))), Optional.empty()),
            new RouteAction.Cluster("c2")),
        new Route("split", RouteMatch.path(new StringMatcher.Prefix("", false)), new RouteAction.WeightedClusters(
            List.of(new ClusterWeight("stable", 90), new ClusterWeight("canary", 10))))),
        () -> TestRandom.seeded(7), WHERE);
    RandomGenerator shared = TestRandom.seeded(7);
    VirtualHostRoutes drawing = new VirtualHostRoutes(host(
        new Route("split", RouteMatch.path(new StringMatcher.Prefix("", false)), new RouteAction.WeightedClusters(
            List.of(new ClusterWeight("stable", 90), new ClusterWeight("canary", 10))))), () -> shared, WHERE);

    assertThat(routes.choose(call("x-version", "v2"))).isEqualTo(new RouteChoice.ToCluster("c2"));
    Map<RouteChoice, Integer> counts = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      counts.merge(drawing.choose(call("x-version", "v1")), 1, Integer::sum);
    }
    // binomial(10000, 0.1): sd 30; 5 sd either side
    assertThat(counts.get(new RouteChoice.ToCluster("canary"))).isBetween(850, 1150);
    assertThat(counts.get(new RouteChoice.ToCluster("stable")) + counts.get(new RouteChoice.ToCluster("canary")))
        .isEqualTo(10_000);
  }

  @Test
  void noMatchAndARouteThatDoesNotForwardFailNamingWhatCouldNotBeRouted() {
    VirtualHostRoutes routes = new VirtualHostRoutes(host(
        new Route("moved", RouteMatch.path(new StringMatcher.Prefix("/echo.", false)),
            new RouteAction.NotForwarded("redirect"))), () -> TestRandom.seeded(1), WHERE);

    assertThat(((RouteChoice.Fail) routes.choose(call("other.Svc/Get"))).status().getDescription())
        .isEqualTo(WHERE + ": virtual host vh: no route matches /other.Svc/Get");
    RouteChoice moved = routes.choose(call("echo.Echo/Say"));
    assertThat(((RouteChoice.Fail) moved).status().getDescription())
        .isEqualTo(WHERE + ": virtual host vh: route moved: its redirect action cannot be served by gRPC");
    assertThat(routes.choose(call("echo.Echo/Other"))).isSameAs(moved);
  }

  private static VirtualHost host(Route... routes) {
    return new VirtualHost("vh", List.of("*"), List.of(routes));
  }

  private static PickSubchannelArgs call(String header, String value) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of(header, Metadata.ASCII_STRING_MARSHALLER), value);
    return call("echo.Echo/Say", headers);
  }

  private static PickSubchannelArgs call(String fullMethodName) {
    return call(fullMethodName, new Metadata());
  }

  private static PickSubchannelArgs call(String fullMethodName, Metadata headers) {
    MethodDescriptor<Void, Void> method = MethodDescriptor.<Void, Void>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(fullMethodName)
        .setRequestMarshaller(VOID)
        .setResponseMarshaller(VOID)
        .build();
    return new PickSubchannelArgs() {
      @Override
      public CallOptions getCallOptions() {
        return CallOptions.DEFAULT;
      }

      @Override
      public Metadata getHeaders() {
        return headers;
      }

      @Override
      public MethodDescriptor<?, ?> getMethodDescriptor() {
        return method;
      }
    };
  }

  private static final MethodDescriptor.Marshaller<Void> VOID = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(Void value) {
      return InputStream.nullInputStream();
    }

    @Override
    public Void parse(InputStream stream) {
      return null;
    }
  };
}
