package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.grpc.Metadata;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.route.RouteEntry;
import io.jxds.api.internal.route.RouteTable;
import io.jxds.api.internal.route.VirtualHostSelector;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.testing.IstioResources;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.util.HexFormat;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutation fuzzing of Listener and RouteConfiguration, as {@link DecoderFuzzTest} does for
 * clusters and endpoints: only {@link XdsResourceException} may come out of decoding, and whatever
 * decodes must route without throwing (virtual host choice for odd authorities, matching, cluster
 * choice), since routing runs in a channel's synchronization context and on RPC threads. A
 * listener's HttpConnectionManager, packed in an {@code Any}, is mutated on its own too.
 *
 * <p>A longer run: {@code mvn -pl xds-api -am test -Dtest=RoutingDecoderFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Djxds.fuzz.iterations=1000000 -Djxds.fuzz.seed=7}.
 */
class RoutingDecoderFuzzTest {
  private static final long ITERATIONS = Long.getLong("jxds.fuzz.iterations", -1);
  private static final long SEED = Long.getLong("jxds.fuzz.seed", 20261126L);
  private static final long CI_BUDGET_NANOS = 3_000_000_000L;
  private static final long CI_MAX_ITERATIONS = 100_000;
  private static final long CI_MIN_ITERATIONS = 3_000;
  private static final String HOST = "echo.default.svc.cluster.local";
  private static final String[] AUTHORITIES = {
    "", ".", "echo:8080", HOST + ".:8080", "[::1]:80", "*", "a.b.c", "ECHO.DEFAULT:8080", ":",
  };
  private static final String[] METHODS = {"echo.Echo/Say", "", "/", "x/y", "Echo.echo/SAY"};

  private static final List<Message> SEEDS = List.of(
      XdsResources.listener("foo:8080").rdsRouteConfig("rc").build(),
      IstioResources.listener(HOST, 8080).persistentSession().build(),
      XdsResources.listener("inline").inlineRouteConfig(IstioResources.routeConfiguration(HOST, 8080)
          .split("v1", 90, "v2", 10).build()).build(),
      IstioResources.routeConfiguration(HOST, 8080).headerRoute("x-canary", "true", "v2").split("v1", 90, "v2", 10)
          .redirect("/old/", "new").directResponse("/gone/", 503).cors().build(),
      matcherZoo());

  @Test
  void decodersThrowNothingButXdsResourceExceptionAndWhatDecodesRoutes() {
    RandomGenerator random = TestRandom.seeded(SEED);
    long deadline = System.nanoTime() + CI_BUDGET_NANOS;
    long limit = ITERATIONS > 0 ? ITERATIONS : CI_MAX_ITERATIONS;
    long done = 0;
    int decoded = 0;
    int rejected = 0;
    for (; done < limit; done++) {
      if (ITERATIONS <= 0 && done >= CI_MIN_ITERATIONS && (done & 63) == 0 && System.nanoTime() > deadline) {
        break;
      }
      Message seed = SEEDS.get(random.nextInt(SEEDS.size()));
      if (seed instanceof Listener l && random.nextBoolean()) {
        seed = withMutatedHcm(l, random);
      }
      byte[] bytes = random.nextInt(4) == 0 ? seed.toByteArray() : DecoderFuzzTest.mutate(seed, random);
      ResourceType<?> type = seed instanceof Listener ? ResourceTypes.LISTENER : ResourceTypes.ROUTE_CONFIGURATION;
      Any any = Any.newBuilder().setTypeUrl(type.typeUrl()).setValue(ByteString.copyFrom(bytes)).build();
      try {
        Object value = ResourceDecoding.unpack(type, any).decode();
        decoded++;
        route(value, random);
      } catch (XdsResourceException e) {
        assertThat(e.getMessage()).isNotBlank();
        rejected++;
      } catch (Throwable t) {
        fail("seed " + SEED + ", iteration " + done + ", " + type.shortName() + " bytes "
            + HexFormat.of().formatHex(bytes) + ": " + t, t);
      }
    }
    System.out.printf("routing fuzz seed %d: %d inputs, %d decoded, %d rejected%n", SEED, done, decoded, rejected);
    assertThat(decoded).as("decoded of %s", done).isPositive();
    assertThat(rejected).as("rejected of %s", done).isPositive();
  }

  /** Routes a few calls with what decoded: nothing here may throw. */
  private static void route(Object value, RandomGenerator random) {
    RouteConfigurationUpdate routes = value instanceof ListenerUpdate l
        ? l.inlineRouteConfiguration().orElse(null) : (RouteConfigurationUpdate) value;
    if (routes == null) {
      return;
    }
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-canary", Metadata.ASCII_STRING_MARSHALLER), random.nextBoolean() ? "true" : "7");
    headers.put(Metadata.Key.of("x-canary", Metadata.ASCII_STRING_MARSHALLER), "-3");
    for (String authority : AUTHORITIES) {
      io.jxds.api.model.route.VirtualHost host = VirtualHostSelector.select(routes.virtualHosts(), authority);
      if (host == null) {
        continue;
      }
      RouteTable table = RouteTable.of(host);
      table.clusterNames();
      for (String method : METHODS) {
        RouteEntry entry = table.match(method, headers, random);
        if (entry != null) {
          entry.chooseCluster(random);
        }
      }
    }
  }

  private static Listener withMutatedHcm(Listener listener, RandomGenerator random) {
    Any packed = listener.getApiListener().getApiListener();
    HttpConnectionManager hcm;
    try {
      hcm = HttpConnectionManager.parseFrom(packed.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
    Any mutated = packed.toBuilder().setValue(ByteString.copyFrom(DecoderFuzzTest.mutate(hcm, random))).build();
    return listener.toBuilder().setApiListener(ApiListener.newBuilder().setApiListener(mutated)).build();
  }

  /** A route configuration using every matcher and action the decoder reads. */
  private static RouteConfiguration matcherZoo() {
    RouteMatch.Builder match = RouteMatch.newBuilder()
        .setSafeRegex(RegexMatcher.newBuilder().setRegex("/echo\\.[A-Z][a-z]+/.*"))
        .setCaseSensitive(BoolValue.of(false))
        .addHeaders(HeaderMatcher.newBuilder().setName("x-canary").setRangeMatch(
            Int64Range.newBuilder().setStart(-10).setEnd(10)))
        .addHeaders(HeaderMatcher.newBuilder().setName("x-canary").setStringMatch(
            StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex("-?[0-9]+"))))
        .addHeaders(HeaderMatcher.newBuilder().setName("x-user").setPresentMatch(true).setInvertMatch(true))
        .addHeaders(HeaderMatcher.newBuilder().setName("x-tag").setSuffixMatch("s")
            .setTreatMissingHeaderAsEmpty(true).setInvertMatch(true))
        .setRuntimeFraction(RuntimeFractionalPercent.newBuilder().setDefaultValue(FractionalPercent.newBuilder()
            .setNumerator(50).setDenominator(FractionalPercent.DenominatorType.HUNDRED)));
    Route weighted = Route.newBuilder().setName("zoo").setMatch(match).setRoute(RouteAction.newBuilder()
        .setWeightedClusters(WeightedCluster.newBuilder()
            .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("a").setWeight(UInt32Value.of(3)))
            .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("b").setWeight(UInt32Value.of(0)))
            .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("c").setWeight(UInt32Value.of(7)))))
        .putTypedPerFilterConfig("envoy.filters.http.fault", Any.pack(HTTPFault.getDefaultInstance()))
        .build();
    Route fallback = Route.newBuilder().setMatch(RouteMatch.newBuilder().setPath("/echo.Echo/Say"))
        .setRoute(RouteAction.newBuilder().setCluster("d")).build();
    return RouteConfiguration.newBuilder().setName("zoo")
        .addVirtualHosts(VirtualHost.newBuilder().setName("vh").addDomains("*.svc.cluster.local.:8080")
            .addDomains("echo*").addDomains("*").addRoutes(weighted).addRoutes(fallback))
        .build();
  }
}
