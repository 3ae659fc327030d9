package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.NameResolver.ConfigOrError;
import io.grpc.NameResolver.ServiceConfigParser;
import io.grpc.Status;
import io.jxds.api.model.route.HashPolicy;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RouteMatch;
import io.jxds.api.model.route.StringMatcher;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.balancer.XdsClusterPolicy;
import io.jxds.balancer.internal.hash.XxHash64;
import io.jxds.balancer.internal.manager.ChosenCluster;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A route's method config (gRFC A31 timeout, A44 retry policy) as the channel's own service-config
 * parser takes it, once per route table: parsed on the first call and kept; refused (a jxds bug),
 * the route's calls fail UNAVAILABLE naming the route, each call's cluster reference given back,
 * one warning logged.
 */
class RouteCallConfigTest {
  private static final Object DEFAULT_CONFIG = "default method config";

  private final FakeLbHelper helper = new FakeLbHelper();
  private final ClusterRefs refs = new ClusterRefs(helper.getSynchronizationContext(),
      helper.getScheduledExecutorService(), () -> { });
  private final List<Map<String, ?>> parsed = new ArrayList<>();

  @Test
  void aMethodConfigTheChannelAcceptsIsParsedOnceAndGivenToEveryCall() {
    RouteCallConfig config = configOf(route("timed", Optional.of(Duration.ofMillis(1500))));
    ServiceConfigParser parser = parser(json -> ConfigOrError.fromConfig("parsed " + json));
    ClusterRefs.ClusterRef ref = hold("c");

    CallRoute first = config.route(retained(ref), FakeLbHelper.ARGS, DEFAULT_CONFIG, parser);
    CallRoute second = config.route(retained(ref), FakeLbHelper.ARGS, DEFAULT_CONFIG, parser);

    assertThat(parsed).hasSize(1);
    assertThat(parsed.get(0).toString()).contains("timeout=1.500000000s");
    assertThat(((CallRoute.Routed) first).methodConfig()).isEqualTo("parsed " + parsed.get(0));
    assertThat(((CallRoute.Routed) second).methodConfig()).isSameAs(((CallRoute.Routed) first).methodConfig());
    assertThat(ref.count()).as("the table's reference and the two calls'").isEqualTo(3);
  }

  @Test
  void aMethodConfigTheChannelRefusesFailsTheRoutesCallsNamingItLogsOnceAndKeepsNoReference() {
    RouteCallConfig config = configOf(route("timed", Optional.of(Duration.ofSeconds(2))));
    ServiceConfigParser parser =
        parser(json -> ConfigOrError.fromError(Status.UNKNOWN.withDescription("bad timeout")));
    ClusterRefs.ClusterRef ref = hold("c");
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(RouteCallConfig.class);
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.addAppender(logs);
    logs.start();
    List<CallRoute> routes = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        routes.add(config.route(retained(ref), FakeLbHelper.ARGS, DEFAULT_CONFIG, parser));
      }
    } finally {
      logger.detachAppender(logs);
      logger.setLevel(level);
    }

    assertThat(routes).allSatisfy(route -> {
      Status status = ((CallRoute.Failed) route).status();
      assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(status.getDescription()).startsWith("route timed: the channel refused its method config")
          .contains("timeout=2.000000000s").contains("bad timeout");
    });
    assertThat(ref.count()).as("only the table's reference").isEqualTo(1);
    assertThat(parsed).as("refused once, not once per call").hasSize(1);
    assertThat(logs.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN);
    assertThat(logs.list.get(0).getFormattedMessage()).contains("route timed").contains("bad timeout");
  }

  @Test
  void aRouteWithoutSettingsGetsTheChannelsConfigWithoutAParser() {
    RouteCallConfig config = configOf(route("plain", Optional.empty()));
    ClusterRefs.ClusterRef ref = hold("c");

    CallRoute route = config.route(retained(ref), FakeLbHelper.ARGS, DEFAULT_CONFIG, null);

    assertThat(config).isSameAs(RouteCallConfig.NONE);
    assertThat(((CallRoute.Routed) route).methodConfig()).isSameAs(DEFAULT_CONFIG);
  }

  /** A parser that records what it is asked. */
  private ServiceConfigParser parser(Function<Map<String, ?>, ConfigOrError> answer) {
    return new ServiceConfigParser() {
      @Override
      public ConfigOrError parseServiceConfig(Map<String, ?> json) {
        parsed.add(json);
        return answer.apply(json);
      }
    };
  }

  @Test
  void aRoutesHashTravelsWithItsClusterInTheCallsOneOption() {
    Route hashed = new Route("hashed", RouteMatch.path(new StringMatcher.Prefix("", false)),
        new RouteAction.Cluster("c"), Optional.empty(), Optional.empty(),
        List.of(new HashPolicy.Header("x-user", Optional.empty(), false)));
    RouteCallConfig config = configOf(hashed);
    ClusterRefs.ClusterRef ref = hold("c");
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "alice");
    CallOptions[] seen = new CallOptions[1];
    Channel channel = new Channel() {
      @Override
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        seen[0] = options;
        return new NoopClientCall<>();
      }

      @Override
      public String authority() {
        return "service";
      }
    };

    CallRoute route = config.route(retained(ref), FakeLbHelper.args(CallOptions.DEFAULT, headers), DEFAULT_CONFIG,
        null);
    ((CallRoute.Routed) route).interceptor().interceptCall(TestBackend.NAME_METHOD,
        CallOptions.DEFAULT.withOption(XdsClusterPolicy.REQUEST_HASH, 5L), channel);

    ChosenCluster chosen = seen[0].getOption(ChosenCluster.KEY);
    assertThat(chosen.cluster()).isEqualTo("c");
    assertThat(chosen.hasRequestHash()).isTrue();
    assertThat(chosen.requestHash()).isEqualTo(XxHash64.hash("alice"));
    assertThat(seen[0].getOption(XdsClusterPolicy.REQUEST_HASH)).as("the application's, left as it set it")
        .isEqualTo(5L);
  }

  private static Route route(String name, Optional<Duration> timeout) {
    return new Route(name, RouteMatch.path(new StringMatcher.Prefix("", false)), new RouteAction.Cluster("c"),
        timeout, Optional.empty(), List.of());
  }

  private static RouteCallConfig configOf(Route route) {
    VirtualHost host = new VirtualHost("vh", List.of("*"), List.of(route));
    return RouteCallConfig.forHost(host, Optional.empty(), 7).get(route);
  }

  private ClusterRefs.ClusterRef hold(String cluster) {
    List<ClusterRefs.ClusterRef> held = new ArrayList<>();
    helper.run(() -> held.add(refs.hold(Set.of(cluster)).get(cluster)));
    return held.get(0);
  }

  private static ClusterRefs.ClusterRef retained(ClusterRefs.ClusterRef ref) {
    assertThat(ref.tryRetain()).isTrue();
    return ref;
  }

  /** A call that does nothing. */
  private static final class NoopClientCall<Q, R> extends ClientCall<Q, R> {
    @Override
    public void start(Listener<R> listener, Metadata headers) {}

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(String message, Throwable cause) {}

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(Q message) {}
  }
}
