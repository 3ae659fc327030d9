package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.listener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType;
import io.grpc.Status;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.FaultFraction;
import io.jxds.api.model.filter.HttpFilterConfig;
import io.jxds.api.model.route.RouteAction.WeightedClusters;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The fault filter's config (gRFC A33) and the filter overrides (gRFC A39), valid and invalid. */
class FaultDecoderTest {
  private static final String FILTER = "api_listener.api_listener.http_filters[0].typed_config";

  @Test
  void fixedDelayAndGrpcAbortDecodeWithTheirPercentagesAndLimit() throws Exception {
    HTTPFault fault = HTTPFault.newBuilder()
        .setDelay(FaultDelay.newBuilder().setFixedDelay(Duration.newBuilder().setSeconds(2).setNanos(5))
            .setPercentage(percent(250, DenominatorType.TEN_THOUSAND)))
        .setAbort(FaultAbort.newBuilder().setGrpcStatus(Status.Code.RESOURCE_EXHAUSTED.value())
            .setPercentage(percent(7, DenominatorType.MILLION)))
        .setMaxActiveFaults(UInt32Value.of(-1)) // read unsigned
        .build();
    ListenerUpdate update = ListenerDecoder.decode(listener("l").rdsRouteConfig("rc").faultFilter("fault", fault)
        .build());
    assertThat(update.httpFilters()).hasSize(2);
    HttpFilter filter = update.httpFilters().get(0);
    assertThat(filter.name()).isEqualTo("fault");
    assertThat(filter.config()).contains(new FaultConfig(
        Optional.of(new FaultConfig.Delay(Optional.of(java.time.Duration.ofSeconds(2, 5)),
            new FaultFraction(250, 10_000))),
        Optional.of(new FaultConfig.Abort(Optional.of(Status.Code.RESOURCE_EXHAUSTED),
            new FaultFraction(7, 1_000_000))),
        OptionalLong.of(4_294_967_295L)));
    assertThat(update.httpFilters().get(1).isRouter()).isTrue();
  }

  @Test
  void everyDenominatorGivesPartsPerMillion() {
    assertThat(new FaultFraction(5, 100).perMillion()).isEqualTo(50_000);
    assertThat(new FaultFraction(5, 10_000).perMillion()).isEqualTo(500);
    assertThat(new FaultFraction(5, 1_000_000).perMillion()).isEqualTo(5);
    assertThat(new FaultFraction(50, 100).withNumerator(20)).isEqualTo(200_000);
    assertThat(new FaultFraction(50, 100).withNumerator(80)).isEqualTo(500_000); // capped (gRFC A33)
  }

  @Test
  void headerControlledFaultsAndAnUnsetPercentageDecode() throws Exception {
    HTTPFault fault = HTTPFault.newBuilder()
        .setDelay(FaultDelay.newBuilder().setHeaderDelay(FaultDelay.HeaderDelay.getDefaultInstance()))
        .setAbort(FaultAbort.newBuilder().setHeaderAbort(FaultAbort.HeaderAbort.getDefaultInstance())
            .setPercentage(percent(100, DenominatorType.HUNDRED)))
        .build();
    assertThat(decodeFault(fault)).isEqualTo(new FaultConfig(
        Optional.of(new FaultConfig.Delay(Optional.empty(), FaultFraction.NEVER)),
        Optional.of(new FaultConfig.Abort(Optional.empty(), new FaultFraction(100, 100))), OptionalLong.empty()));
  }

  @Test
  void httpStatusIsMappedToItsGrpcCode() throws Exception {
    assertThat(abortCode(FaultAbort.newBuilder().setHttpStatus(503))).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(abortCode(FaultAbort.newBuilder().setHttpStatus(404))).isEqualTo(Status.Code.UNIMPLEMENTED);
    assertThat(abortCode(FaultAbort.newBuilder().setHttpStatus(200))).isEqualTo(Status.Code.UNKNOWN); // gRFC A33
    assertThat(abortCode(FaultAbort.newBuilder().setHttpStatus(401))).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(abortCode(FaultAbort.newBuilder().setGrpcStatus(0))).isEqualTo(Status.Code.OK);
  }

  @Test
  void aNumeratorOverItsDenominatorIsCappedTo100Percent() throws Exception {
    FaultConfig config = decodeFault(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(14)
        .setPercentage(percent(150, DenominatorType.HUNDRED))).build());
    assertThat(config.abort().orElseThrow().percentage()).isEqualTo(new FaultFraction(100, 100));
    FaultConfig huge = decodeFault(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(14)
        .setPercentage(percent(-1, DenominatorType.MILLION))).build()); // 2^32-1, unsigned: no overflow
    assertThat(huge.abort().orElseThrow().percentage().perMillion()).isEqualTo(1_000_000);
  }

  @Test
  void anAbortWithACodeGrpcLacksIsNacked() {
    assertFaultNack(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(17)).build(),
        FILTER + ".abort.grpc_status must be a gRPC status code in [0, 16], got 17");
    assertFaultNack(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setHttpStatus(600)).build(),
        FILTER + ".abort.http_status must be in [200, 600), got 600");
    assertFaultNack(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setHttpStatus(99)).build(),
        FILTER + ".abort.http_status must be in [200, 600), got 99");
    assertFaultNack(HTTPFault.newBuilder().setAbort(FaultAbort.getDefaultInstance()).build(),
        FILTER + ".abort must set grpc_status, http_status or header_abort, got none");
  }

  @Test
  void aNegativeDelayIsNacked() {
    assertFaultNack(HTTPFault.newBuilder().setDelay(FaultDelay.newBuilder()
            .setFixedDelay(Duration.newBuilder().setSeconds(-1))).build(),
        FILTER + ".delay.fixed_delay must be a duration in [0, 315576000000s], got {seconds: -1, nanos: 0}");
    assertFaultNack(HTTPFault.newBuilder().setDelay(FaultDelay.getDefaultInstance()).build(),
        FILTER + ".delay must set fixed_delay or header_delay, got neither");
  }

  @Test
  void anUnknownDenominatorIsNacked() {
    assertFaultNack(HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(14)
            .setPercentage(FractionalPercent.newBuilder().setNumerator(1).setDenominatorValue(7))).build(),
        FILTER + ".abort.percentage.denominator must be HUNDRED, TEN_THOUSAND or MILLION, got 7");
  }

  @Test
  void aFaultConfigInATypedStructIsNacked() {
    Any typedStruct = Any.pack(com.github.xds.type.v3.TypedStruct.newBuilder()
        .setTypeUrl(HttpFilter.FAULT_TYPE_URL).setValue(Struct.getDefaultInstance()).build());
    Listener l = listener("l").rdsRouteConfig("rc").build();
    Listener withStruct = withFirstFilter(l, typedStruct);
    assertThatThrownBy(() -> ListenerDecoder.decode(withStruct)).isInstanceOf(XdsResourceException.class)
        .hasMessageContaining(FILTER + " must be a packed HTTPFault");
  }

  @Test
  void overridesAreKeptOnVirtualHostRouteAndWeightedCluster() throws Exception {
    HTTPFault abort = HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(14)
        .setPercentage(percent(100, DenominatorType.HUNDRED))).build();
    Any wrapped = Any.pack(FilterConfig.newBuilder().setConfig(Any.pack(abort)).setIsOptional(true).build());
    VirtualHost host = VirtualHost.newBuilder().setName("vh").addDomains("*")
        .putTypedPerFilterConfig("fault", Any.pack(abort))
        .putTypedPerFilterConfig("cors", Any.pack(Struct.getDefaultInstance())) // unknown: no effect
        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix(""))
            .putTypedPerFilterConfig("fault", wrapped)
            .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("a").setWeight(UInt32Value.of(1))
                    .putTypedPerFilterConfig("fault", Any.pack(abort))))))
        .build();
    RouteConfigurationUpdate update = RouteConfigurationDecoder.decode(
        RouteConfiguration.newBuilder().setName("rc").addVirtualHosts(host).build());
    FaultConfig expected = new FaultConfig(Optional.empty(), Optional.of(new FaultConfig.Abort(
        Optional.of(Status.Code.UNAVAILABLE), new FaultFraction(100, 100))), OptionalLong.empty());
    var vh = update.virtualHosts().get(0);
    assertThat(vh.filterOverrides()).isEqualTo(Map.<String, HttpFilterConfig>of("fault", expected));
    assertThat(vh.routes().get(0).filterOverrides()).isEqualTo(Map.of("fault", expected));
    assertThat(((WeightedClusters) vh.routes().get(0).action()).clusters().get(0).filterOverrides())
        .isEqualTo(Map.of("fault", expected));
  }

  @Test
  void aBadOverrideIsNackedNamingItsPath() {
    HTTPFault bad = HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setGrpcStatus(99)).build();
    VirtualHost host = VirtualHost.newBuilder().setName("vh").addDomains("*")
        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix(""))
            .putTypedPerFilterConfig("fault", Any.pack(FilterConfig.newBuilder().setConfig(Any.pack(bad)).build()))
            .setRoute(RouteAction.newBuilder().setCluster("c")))
        .build();
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(
        RouteConfiguration.newBuilder().setName("rc").addVirtualHosts(host).build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("RouteConfiguration \"rc\": virtual_hosts[0].routes[0].typed_per_filter_config[\"fault\"].config"
            + ".abort.grpc_status must be a gRPC status code in [0, 16], got 99");
  }

  @Test
  void aFilterConfigOfTheWrongTypeIsNacked() {
    // The router's config as an override, and bytes that are not an HTTPFault under its type.
    VirtualHost host = VirtualHost.newBuilder().setName("vh").addDomains("*")
        .putTypedPerFilterConfig("fault", Any.pack(Router.getDefaultInstance()))
        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix(""))
            .setRoute(RouteAction.newBuilder().setCluster("c")))
        .build();
    assertThatThrownBy(() -> RouteConfigurationDecoder.decode(
        RouteConfiguration.newBuilder().setName("rc").addVirtualHosts(host).build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageContaining("virtual_hosts[0].typed_per_filter_config[\"fault\"] must not configure the router");
    Any notAFault = Any.newBuilder().setTypeUrl(HttpFilter.FAULT_TYPE_URL)
        .setValue(com.google.protobuf.ByteString.copyFrom(new byte[] {(byte) 0xff})).build();
    Listener l = withFirstFilter(listener("l").rdsRouteConfig("rc").build(), notAFault);
    assertThatThrownBy(() -> ListenerDecoder.decode(l)).isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("listener \"l\": " + FILTER + " must be a valid HTTPFault");
  }

  private static Status.Code abortCode(FaultAbort.Builder abort) throws XdsResourceException {
    return decodeFault(HTTPFault.newBuilder().setAbort(abort).build()).abort().orElseThrow().code().orElseThrow();
  }

  private static FaultConfig decodeFault(HTTPFault fault) throws XdsResourceException {
    ListenerUpdate update = ListenerDecoder.decode(listener("l").rdsRouteConfig("rc").faultFilter("f", fault).build());
    return (FaultConfig) update.httpFilters().get(0).config().orElseThrow();
  }

  private static void assertFaultNack(HTTPFault fault, String expected) {
    Listener l = listener("l").rdsRouteConfig("rc").faultFilter("f", fault).build();
    assertThatThrownBy(() -> ListenerDecoder.decode(l)).isInstanceOf(XdsResourceException.class)
        .hasMessage("listener \"l\": " + expected);
  }

  /** {@code l} with a fault filter named "f" whose typed_config is {@code config}, before its router. */
  private static Listener withFirstFilter(Listener l, Any config) {
    try {
      var hcm = l.getApiListener().getApiListener()
          .unpack(io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.class)
          .toBuilder();
      hcm.addHttpFilters(0, io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter
          .newBuilder().setName("f").setTypedConfig(config));
      return l.toBuilder().setApiListener(l.getApiListener().toBuilder().setApiListener(Any.pack(hcm.build())))
          .build();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  private static FractionalPercent percent(int numerator, DenominatorType denominator) {
    return FractionalPercent.newBuilder().setNumerator(numerator).setDenominator(denominator).build();
  }
}
