package io.jxds.api.internal.decode;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import java.util.List;
import java.util.Optional;

/**
 * Validates an envoy v3 client {@code Listener} (an LDS resource) into a {@link ListenerUpdate}
 * (gRFC A27, A39).
 *
 * <p>Rules (a broken rule is a NACK naming the listener, the field and the value):
 *
 * <ul>
 *   <li>{@code name} non-empty; {@code api_listener} set (jxds reads client listeners only), its
 *       {@code api_listener} an {@code HttpConnectionManager};
 *   <li>in it: {@code xff_num_trusted_hops} 0, {@code original_ip_detection_extensions} empty (as
 *       grpc-java); {@code http_filters} by gRFC A39 (see {@link HttpFilterRules});
 *   <li>routes over {@code rds}, whose {@code config_source} is {@code ads} or {@code self} and
 *       whose {@code route_config_name} is not empty, or inline in {@code route_config}, validated
 *       as an RDS resource is ({@link RouteConfigurationDecoder}); {@code scoped_routes} or none is
 *       a NACK;
 *   <li>{@code common_http_protocol_options.max_stream_duration}, the default call timeout
 *       (gRFC A31), a duration in [0, 315576000000 s] (kept exactly, however small or large); zero
 *       means none.
 * </ul>
 */
public final class ListenerDecoder {
  static final String KIND = "listener";
  /** The type URL of the {@code api_listener} jxds reads. */
  public static final String HCM_TYPE_URL =
      "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager";
  private static final String HCM = "api_listener.api_listener";

  private ListenerDecoder() {}

  /**
   * Validates {@code listener}; every rule broken names the listener, the field and the value.
   *
   * @throws XdsResourceException whatever is wrong with the input; never an unchecked exception
   */
  public static ListenerUpdate decode(Listener listener) throws XdsResourceException {
    String name = "";
    try {
      name = listener.getName();
      return decodeChecked(listener, name);
    } catch (RuntimeException e) {
      throw Nack.unexpected(KIND, name, e);
    }
  }

  private static ListenerUpdate decodeChecked(Listener listener, String name) throws XdsResourceException {
    if (name.isEmpty()) {
      throw Nack.of(KIND, name, "name must not be empty", "\"\"");
    }
    if (!listener.hasApiListener()) {
      throw Nack.of(KIND, name, "api_listener must be set (jxds reads client listeners only)", "unset");
    }
    HttpConnectionManager hcm = httpConnectionManager(listener.getApiListener().getApiListener(), name);
    if (hcm.getXffNumTrustedHops() != 0) {
      throw Nack.of(KIND, name, HCM + ".xff_num_trusted_hops must be 0", String.valueOf(hcm.getXffNumTrustedHops()));
    }
    if (hcm.getOriginalIpDetectionExtensionsCount() > 0) {
      throw Nack.of(KIND, name, HCM + ".original_ip_detection_extensions must be empty",
          hcm.getOriginalIpDetectionExtensionsCount() + " entries");
    }
    List<HttpFilter> filters = HttpFilterRules.decodeFilters(hcm.getHttpFiltersList(), KIND, name,
        HCM + ".http_filters");
    Optional<java.time.Duration> maxStreamDuration = maxStreamDuration(hcm, name);
    switch (hcm.getRouteSpecifierCase()) {
      case RDS:
        return new ListenerUpdate(name, Optional.of(rdsName(hcm.getRds(), name)), Optional.empty(), filters,
            maxStreamDuration);
      case ROUTE_CONFIG:
        RouteConfigurationUpdate routes =
            RouteConfigurationDecoder.decode(hcm.getRouteConfig(), KIND, name, HCM + ".route_config");
        return new ListenerUpdate(name, Optional.empty(), Optional.of(routes), filters, maxStreamDuration);
      case SCOPED_ROUTES:
        throw Nack.of(KIND, name, HCM + ".route_specifier must be rds or route_config", "scoped_routes");
      default:
        throw Nack.of(KIND, name, HCM + ".route_specifier must be rds or route_config", "unset");
    }
  }

  private static HttpConnectionManager httpConnectionManager(Any any, String name) throws XdsResourceException {
    if (!HCM_TYPE_URL.equals(HttpFilterRules.typeUrlOf(any.getTypeUrl()))) {
      throw Nack.of(KIND, name, HCM + " must be an HttpConnectionManager", Nack.quote(any.getTypeUrl()));
    }
    try {
      return HttpConnectionManager.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw Nack.of(KIND, name, HCM + " must be a valid HttpConnectionManager",
          "bytes that do not parse (" + e.getMessage() + ")");
    }
  }

  private static String rdsName(Rds rds, String name) throws XdsResourceException {
    if (!rds.hasConfigSource()) {
      throw Nack.of(KIND, name, HCM + ".rds.config_source must be ads or self", "unset");
    }
    ConfigSource source = rds.getConfigSource();
    if (!source.hasAds() && !source.hasSelf()) {
      throw Nack.of(KIND, name, HCM + ".rds.config_source must be ads or self",
          ClusterDecoder.configSourceKind(source));
    }
    if (rds.getRouteConfigName().isEmpty()) {
      throw Nack.of(KIND, name, HCM + ".rds.route_config_name must not be empty", "\"\"");
    }
    return rds.getRouteConfigName();
  }

  private static Optional<java.time.Duration> maxStreamDuration(HttpConnectionManager hcm, String name)
      throws XdsResourceException {
    if (!hcm.getCommonHttpProtocolOptions().hasMaxStreamDuration()) {
      return Optional.empty();
    }
    java.time.Duration duration = RoutePolicyDecoder.duration(hcm.getCommonHttpProtocolOptions().getMaxStreamDuration(),
        KIND, name, HCM + ".common_http_protocol_options.max_stream_duration");
    return duration.isZero() ? Optional.empty() : Optional.of(duration);
  }
}
