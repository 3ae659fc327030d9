package io.jxds.api.internal.decode;

import static io.jxds.testing.XdsResources.listener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.ExtensionConfigSource;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.http.stateful_session.v3.StatefulSession;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.ScopedRoutes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.route.RouteAction;
import io.jxds.testing.ListenerBuilder;
import io.jxds.testing.XdsResources;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per Listener validation rule (gRFC A27, A39), valid and invalid. */
class ListenerDecoderTest {
  private static final String HCM = "api_listener.api_listener.";
  private static final String ROUTER_URL = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";

  @Test
  void rdsListenerDecodesToItsRouteConfigName() throws Exception {
    ListenerUpdate update = ListenerDecoder.decode(listener("foo:8080").rdsRouteConfig("rc").build());
    assertThat(update).isEqualTo(ListenerUpdate.rds("foo:8080", "rc"));
  }

  @Test
  void rdsOverSelfIsAccepted() throws Exception {
    ListenerBuilder l = listener("foo");
    l.httpConnectionManager().setRds(Rds.newBuilder().setConfigSource(XdsResources.selfConfigSource())
        .setRouteConfigName("rc"));
    assertThat(ListenerDecoder.decode(l.build()).rdsName()).contains("rc");
  }

  @Test
  void inlineRouteConfigIsDecodedAsAnRdsResourceIs() throws Exception {
    RouteConfiguration routes = XdsResources.route("").virtualHost("vh", List.of("*"), "c").build();
    ListenerUpdate update = ListenerDecoder.decode(listener("foo").inlineRouteConfig(routes).build());
    assertThat(update.rdsName()).isEmpty();
    assertThat(update.inlineRouteConfiguration().orElseThrow().virtualHosts().get(0).routes().get(0).action())
        .isEqualTo(new RouteAction.Cluster("c"));
  }

  @Test
  void inlineRouteConfigErrorsNameTheListenerAndTheFullPath() {
    RouteConfiguration routes = XdsResources.route("").virtualHost("vh", List.of("*"), "").build();
    assertNack(listener("foo").inlineRouteConfig(routes).build(),
        HCM + "route_config.virtual_hosts[0].routes[0].route.cluster must not be empty, got \"\"");
  }

  @Test
  void emptyNameIsRejected() {
    assertThatThrownBy(() -> ListenerDecoder.decode(listener("").rdsRouteConfig("rc").build()))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("listener \"\": name must not be empty, got \"\"");
  }

  @Test
  void listenerWithoutApiListenerIsRejected() {
    assertNack(Listener.newBuilder().setName("foo").build(),
        "api_listener must be set (jxds reads client listeners only), got unset");
  }

  @Test
  void apiListenerOfAnotherTypeIsRejected() {
    Listener l = Listener.newBuilder().setName("foo")
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(StringValue.of("x")))).build();
    assertNack(l, HCM.substring(0, HCM.length() - 1)
        + " must be an HttpConnectionManager, got \"type.googleapis.com/google.protobuf.StringValue\"");
  }

  @Test
  void apiListenerThatDoesNotParseIsRejected() {
    Any garbage = Any.newBuilder()
        .setTypeUrl(ListenerDecoder.HCM_TYPE_URL).setValue(ByteString.copyFrom(new byte[] {(byte) 0xff})).build();
    Listener l = Listener.newBuilder().setName("foo")
        .setApiListener(ApiListener.newBuilder().setApiListener(garbage)).build();
    assertThatThrownBy(() -> ListenerDecoder.decode(l))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("listener \"foo\": api_listener.api_listener must be a valid HttpConnectionManager, "
            + "got bytes that do not parse (");
  }

  @Test
  void xffTrustedHopsMustBeZero() {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().setXffNumTrustedHops(2);
    assertNack(l.build(), HCM + "xff_num_trusted_hops must be 0, got 2");
  }

  @Test
  void originalIpDetectionExtensionsMustBeEmpty() {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().addOriginalIpDetectionExtensions(TypedExtensionConfig.newBuilder().setName("x"));
    assertNack(l.build(), HCM + "original_ip_detection_extensions must be empty, got 1 entries");
  }

  @Test
  @SuppressWarnings("deprecation") // ConfigSource.path: deprecated, but control planes may send it
  void rdsConfigSourceMustBeAdsOrSelf() {
    ListenerBuilder l = listener("foo");
    l.httpConnectionManager().setRds(Rds.newBuilder().setConfigSource(ConfigSource.newBuilder().setPath("/x"))
        .setRouteConfigName("rc"));
    assertNack(l.build(), HCM + "rds.config_source must be ads or self, got path");
    l.httpConnectionManager().setRds(Rds.newBuilder().setRouteConfigName("rc"));
    assertNack(l.build(), HCM + "rds.config_source must be ads or self, got unset");
  }

  @Test
  void rdsRouteConfigNameMustNotBeEmpty() {
    assertNack(listener("foo").rdsRouteConfig("").build(), HCM + "rds.route_config_name must not be empty, got \"\"");
  }

  @Test
  void scopedRoutesOrNoRoutesAreRejected() {
    ListenerBuilder l = listener("foo");
    assertNack(l.build(), HCM + "route_specifier must be rds or route_config, got unset");
    l.httpConnectionManager().setScopedRoutes(ScopedRoutes.newBuilder().setName("s"));
    assertNack(l.build(), HCM + "route_specifier must be rds or route_config, got scoped_routes");
  }

  @Test
  void maxStreamDurationIsTheDefaultTimeout() throws Exception {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(Duration.newBuilder().setSeconds(2).setNanos(500_000_000)));
    assertThat(ListenerDecoder.decode(l.build()).maxStreamDuration()).contains(java.time.Duration.ofMillis(2500));
  }

  @Test
  void zeroMaxStreamDurationMeansNone() throws Exception {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(Duration.getDefaultInstance()));
    assertThat(ListenerDecoder.decode(l.build()).maxStreamDuration()).isEmpty();
  }

  @Test
  void invalidMaxStreamDurationIsRejected() {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().setCommonHttpProtocolOptions(HttpProtocolOptions.newBuilder()
        .setMaxStreamDuration(Duration.newBuilder().setSeconds(1).setNanos(-5)));
    assertNack(l.build(), HCM + "common_http_protocol_options.max_stream_duration must be a duration in "
        + "[0, 315576000000s], got {seconds: 1, nanos: -5}");
  }

  // http_filters (gRFC A39)

  @Test
  void filtersAreKeptInOrderWithTheRouterLast() throws Exception {
    ListenerUpdate update = ListenerDecoder.decode(withFilters(
        filter("envoy.filters.http.fault", Any.pack(HTTPFault.getDefaultInstance())), router()));
    assertThat(update.httpFilters()).containsExactly(
        new io.jxds.api.model.HttpFilter("envoy.filters.http.fault", io.jxds.api.model.HttpFilter.FAULT_TYPE_URL,
            false, java.util.Optional.of(new io.jxds.api.model.filter.FaultConfig(java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.OptionalLong.empty()))),
        io.jxds.api.model.HttpFilter.router());
  }

  @Test
  void emptyFilterListIsRejected() {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    // the builder adds the router only when there is no filter: give it one, then clear the list
    Listener built = l.build();
    HttpConnectionManager hcm = unpack(built).toBuilder().clearHttpFilters().build();
    assertNack(withHcm(built, hcm), HCM + "http_filters must not be empty, got 0 entries");
  }

  @Test
  void duplicateFilterNamesAreRejected() {
    assertNack(withFilters(filter("f", Any.pack(HTTPFault.getDefaultInstance())),
            filter("f", Any.pack(HTTPFault.getDefaultInstance())), router()),
        HCM + "http_filters[1].name must be unique, got \"f\" (also api_listener.api_listener.http_filters[0])");
  }

  @Test
  void emptyFilterNameIsRejected() {
    assertNack(withFilters(filter("", Any.pack(Router.getDefaultInstance()))),
        HCM + "http_filters[0].name must not be empty, got \"\"");
  }

  @Test
  void unknownRequiredFilterIsRejectedNamingItsType() {
    // istiod's persistent-session filter (gRFC A55/A60), which jxds lacks
    assertNack(withFilters(
            filter("envoy.filters.http.stateful_session", Any.pack(StatefulSession.getDefaultInstance())), router()),
        HCM + "http_filters[0].typed_config must be a filter jxds supports (router, fault) or is_optional, got "
            + "\"type.googleapis.com/envoy.extensions.filters.http.stateful_session.v3.StatefulSession\" "
            + "(filter \"envoy.filters.http.stateful_session\")");
  }

  @Test
  void unknownOptionalFilterIsLeftOut() throws Exception {
    HttpFilter optional = filter("session", Any.pack(StatefulSession.getDefaultInstance())).toBuilder()
        .setIsOptional(true).build();
    assertThat(ListenerDecoder.decode(withFilters(optional, router())).httpFilters())
        .containsExactly(io.jxds.api.model.HttpFilter.router());
  }

  @Test
  void filterWithoutTypedConfigIsRejectedUnlessOptional() throws Exception {
    HttpFilter bare = HttpFilter.newBuilder().setName("bare").build();
    assertNack(withFilters(bare, router()), HCM + "http_filters[0].typed_config must be set, got unset");
    HttpFilter discovered = bare.toBuilder().setConfigDiscovery(ExtensionConfigSource.getDefaultInstance()).build();
    assertNack(withFilters(discovered, router()),
        HCM + "http_filters[0].typed_config must be set, got config_discovery");
    assertThat(ListenerDecoder.decode(withFilters(bare.toBuilder().setIsOptional(true).build(), router()))
        .httpFilters()).containsExactly(io.jxds.api.model.HttpFilter.router());
  }

  @Test
  void routerMustBeLast() {
    assertNack(withFilters(router(), filter("fault", Any.pack(HTTPFault.getDefaultInstance()))),
        HCM + "http_filters[0] must be the last filter, as the router ends the chain, got the router at index 0 of 2");
    assertNack(withFilters(filter("fault", Any.pack(HTTPFault.getDefaultInstance()))),
        HCM + "http_filters[0] must be the router (" + ROUTER_URL + "), got "
            + "\"type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault\"");
  }

  @Test
  void optionalUnknownFilterLastLeavesNoRouterLast() {
    HttpFilter optional = filter("session", Any.pack(StatefulSession.getDefaultInstance())).toBuilder()
        .setIsOptional(true).build();
    assertNack(withFilters(optional), HCM + "http_filters[0] must be the router (" + ROUTER_URL + "), got "
        + "\"type.googleapis.com/envoy.extensions.filters.http.stateful_session.v3.StatefulSession\"");
  }

  @Test
  void typedStructIsUnwrapped() throws Exception {
    Any router = Any.pack(com.github.xds.type.v3.TypedStruct.newBuilder().setTypeUrl(ROUTER_URL)
        .setValue(Struct.getDefaultInstance()).build());
    Any session = Any.pack(com.github.udpa.udpa.type.v1.TypedStruct.newBuilder()
        .setTypeUrl("type.googleapis.com/envoy.extensions.filters.http.stateful_session.v3.StatefulSession").build());
    assertThat(ListenerDecoder.decode(withFilters(filter("r", router))).httpFilters())
        .containsExactly(new io.jxds.api.model.HttpFilter("r", ROUTER_URL, false));
    assertNack(withFilters(filter("s", session), filter("r", router)),
        HCM + "http_filters[0].typed_config must be a filter jxds supports (router, fault) or is_optional, got "
            + "\"type.googleapis.com/envoy.extensions.filters.http.stateful_session.v3.StatefulSession\" "
            + "(filter \"s\")");
  }

  @Test
  void knownFilterWhoseConfigDoesNotParseIsRejectedEvenWhenOptional() {
    Any badFault = Any.newBuilder().setTypeUrl(io.jxds.api.model.HttpFilter.FAULT_TYPE_URL)
        .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff})).build();
    HttpFilter optional = filter("fault", badFault).toBuilder().setIsOptional(true).build();
    assertThatThrownBy(() -> ListenerDecoder.decode(withFilters(optional, router())))
        .isInstanceOf(XdsResourceException.class)
        .hasMessageStartingWith("listener \"foo\": " + HCM + "http_filters[0].typed_config must be a valid HTTPFault, "
            + "got \"type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault\" whose bytes do not parse");
  }

  private static HttpFilter filter(String name, Any config) {
    return HttpFilter.newBuilder().setName(name).setTypedConfig(config).build();
  }

  private static HttpFilter router() {
    return filter(ListenerBuilder.ROUTER_FILTER_NAME, Any.pack(Router.getDefaultInstance()));
  }

  private static Listener withFilters(HttpFilter... filters) {
    ListenerBuilder l = listener("foo").rdsRouteConfig("rc");
    l.httpConnectionManager().addAllHttpFilters(List.of(filters));
    return l.build();
  }

  private static HttpConnectionManager unpack(Listener l) {
    try {
      return l.getApiListener().getApiListener().unpack(HttpConnectionManager.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static Listener withHcm(Listener l, HttpConnectionManager hcm) {
    return l.toBuilder().setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm))).build();
  }

  private static void assertNack(Listener listener, String expected) {
    assertThatThrownBy(() -> ListenerDecoder.decode(listener))
        .isInstanceOf(XdsResourceException.class)
        .hasMessage("listener \"" + listener.getName() + "\": " + expected)
        .extracting(e -> ((XdsResourceException) e).resourceName())
        .isEqualTo(listener.getName());
  }
}
