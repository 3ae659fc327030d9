package io.jxds.api.internal.decode;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.jxds.api.XdsResourceException;
import io.jxds.api.model.HttpFilter;
import io.jxds.api.model.filter.HttpFilterConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * gRFC A39's rules for a Listener's {@code http_filters} and for the {@code typed_per_filter_config}
 * overrides of virtual hosts, routes and weighted clusters.
 *
 * <p>jxds knows two filters: the router ({@code envoy.extensions.filters.http.router.v3.Router})
 * and fault injection ({@code envoy.extensions.filters.http.fault.v3.HTTPFault}, which every istiod
 * listener carries; its config is validated by {@link FaultDecoder} and applied to calls, gRFC A33).
 * A {@code udpa.type.v1.TypedStruct} or {@code xds.type.v3.TypedStruct} is unwrapped: its
 * {@code type_url} names the filter; a fault config in one is a NACK, as jxds reads an
 * {@code HTTPFault} only as the packed message (Istio and Traffic Director send it so).
 *
 * <p>{@code http_filters}: not empty; names not empty and unique; a filter of a type jxds does not
 * know is left out when {@code is_optional}, else NACKed (an Istio service labelled for persistent
 * sessions gets {@code envoy.filters.http.stateful_session}, gRFC A55/A60, which jxds lacks: that
 * listener is NACKed, as grpc-java NACKs it); a known filter whose config does not parse is NACKed
 * even when optional; the router must be the last entry and nowhere else.
 *
 * <p>Overrides: one for the router is NACKed ({@code Router} takes none); one for the fault filter
 * must be valid and is kept; one of a type jxds does not know is accepted and has no effect,
 * whatever its {@code is_optional}; an {@code envoy.config.route.v3.FilterConfig} wrapper is
 * unwrapped (its {@code disabled} is not read, as grpc-java does not read it). An override only
 * changes the filter of its name in the listener, and a
 * listener naming a required filter jxds does not know was NACKed already, so such an override
 * can change nothing. grpc-java NACKs it instead, which rejects every istiod RouteConfiguration
 * with a CORS policy ({@code envoy.filters.http.cors}) or a persistent-session override.
 */
final class HttpFilterRules {
  static final String ROUTER = HttpFilter.ROUTER_TYPE_URL;
  static final String FAULT = HttpFilter.FAULT_TYPE_URL;
  private static final String FILTER_CONFIG = "type.googleapis.com/envoy.config.route.v3.FilterConfig";
  private static final String UDPA_TYPED_STRUCT = "type.googleapis.com/udpa.type.v1.TypedStruct";
  private static final String XDS_TYPED_STRUCT = "type.googleapis.com/xds.type.v3.TypedStruct";
  private static final String TYPE_PREFIX = "type.googleapis.com/";

  private HttpFilterRules() {}

  /**
   * Validates {@code http_filters} at {@code path}.
   *
   * @return the filters jxds runs, in order, the router last
   */
  static List<HttpFilter> decodeFilters(
      List<io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter> filters,
      String kind, String name, String path) throws XdsResourceException {
    if (filters.isEmpty()) {
      throw Nack.of(kind, name, path + " must not be empty", "0 entries");
    }
    int last = filters.size() - 1;
    Map<String, Integer> seen = new HashMap<>();
    List<HttpFilter> result = new ArrayList<>();
    String lastType = "unset";
    for (int i = 0; i <= last; i++) {
      var f = filters.get(i);
      String at = path + "[" + i + "]";
      String filterName = f.getName();
      if (filterName.isEmpty()) {
        throw Nack.of(kind, name, at + ".name must not be empty", "\"\"");
      }
      Integer before = seen.putIfAbsent(filterName, i);
      if (before != null) {
        throw Nack.of(kind, name, at + ".name must be unique", Nack.quote(filterName) + " (also " + path + "["
            + before + "])");
      }
      if (!f.hasTypedConfig()) {
        lastType = "unset";
        if (f.getIsOptional()) {
          continue;
        }
        throw Nack.of(kind, name, at + ".typed_config must be set", f.hasConfigDiscovery() ? "config_discovery"
            : "unset");
      }
      Config config = unwrap(f.getTypedConfig(), kind, name, at + ".typed_config");
      lastType = config.typeUrl();
      if (ROUTER.equals(config.typeUrl())) {
        if (i != last) {
          throw Nack.of(kind, name, at + " must be the last filter, as the router ends the chain",
              "the router at index " + i + " of " + filters.size());
        }
      } else if (FAULT.equals(config.typeUrl())) {
        HttpFilterConfig fault = fault(config, kind, name, at + ".typed_config");
        result.add(new HttpFilter(filterName, config.typeUrl(), f.getIsOptional(), Optional.of(fault)));
        continue;
      } else if (f.getIsOptional()) {
        continue;
      } else {
        throw Nack.of(kind, name, at + ".typed_config must be a filter jxds supports (router, fault) or is_optional",
            Nack.quote(config.typeUrl()) + " (filter " + Nack.quote(filterName) + ")");
      }
      result.add(new HttpFilter(filterName, config.typeUrl(), f.getIsOptional()));
    }
    if (!ROUTER.equals(lastType)) {
      throw Nack.of(kind, name, path + "[" + last + "] must be the router (" + ROUTER + ")", Nack.quote(lastType));
    }
    return List.copyOf(result);
  }

  /**
   * Validates a {@code typed_per_filter_config} map at {@code path}.
   *
   * @return the overrides of the filters jxds runs, by filter name
   */
  static Map<String, HttpFilterConfig> overrides(Map<String, Any> overrides, String kind, String name, String path)
      throws XdsResourceException {
    if (overrides.isEmpty()) {
      return Map.of();
    }
    Map<String, HttpFilterConfig> result = new LinkedHashMap<>();
    for (Map.Entry<String, Any> e : overrides.entrySet()) {
      String at = path + "[" + Nack.quote(e.getKey()) + "]";
      Any value = e.getValue();
      if (FILTER_CONFIG.equals(typeUrl(value))) {
        FilterConfig wrapper = parse(value, FilterConfig.parser(), kind, name, at, "FilterConfig");
        if (!wrapper.hasConfig()) {
          continue; // disabled, or nothing to override
        }
        value = wrapper.getConfig();
        at = at + ".config";
      }
      Config config = unwrap(value, kind, name, at);
      if (ROUTER.equals(config.typeUrl())) {
        throw Nack.of(kind, name, at + " must not configure the router filter, which takes no override",
            Nack.quote(config.typeUrl()));
      }
      if (FAULT.equals(config.typeUrl())) {
        result.put(e.getKey(), fault(config, kind, name, at));
      }
    }
    return Map.copyOf(result);
  }

  private static HttpFilterConfig fault(Config config, String kind, String name, String at)
      throws XdsResourceException {
    Any packed = config.packed();
    if (packed == null) {
      throw Nack.of(kind, name,
          at + " must be a packed HTTPFault (jxds does not read a fault config from a TypedStruct)",
          "a TypedStruct of " + Nack.quote(config.typeUrl()));
    }
    return FaultDecoder.decode(parse(packed, HTTPFault.parser(), kind, name, at, "HTTPFault"), kind, name, at);
  }

  /** The filter type and, unless it came in a TypedStruct, its packed config. */
  private static Config unwrap(Any any, String kind, String name, String at) throws XdsResourceException {
    String type = typeUrl(any);
    if (UDPA_TYPED_STRUCT.equals(type)) {
      var ts = parse(any, com.github.udpa.udpa.type.v1.TypedStruct.parser(), kind, name, at, "TypedStruct");
      return new Config(typeUrlOf(ts.getTypeUrl()), null);
    }
    if (XDS_TYPED_STRUCT.equals(type)) {
      var ts = parse(any, com.github.xds.type.v3.TypedStruct.parser(), kind, name, at, "TypedStruct");
      return new Config(typeUrlOf(ts.getTypeUrl()), null);
    }
    return new Config(type, any);
  }

  private static <M> M parse(Any any, com.google.protobuf.Parser<M> parser, String kind, String name, String at,
      String what) throws XdsResourceException {
    try {
      return parser.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw Nack.of(kind, name, at + " must be a valid " + what, Nack.quote(any.getTypeUrl()) + " whose bytes do not "
          + "parse (" + e.getMessage() + ")");
    }
  }

  private static String typeUrl(Any any) {
    return typeUrlOf(any.getTypeUrl());
  }

  /** A type URL with the usual prefix, whatever prefix it came with: types are named after the last "/". */
  static String typeUrlOf(String url) {
    return url.isEmpty() || url.startsWith(TYPE_PREFIX) ? url : TYPE_PREFIX + url.substring(url.lastIndexOf('/') + 1);
  }

  /** A filter's type, and its config unless that came as a TypedStruct (whose Struct is not read yet). */
  private record Config(String typeUrl, @Nullable Any packed) {}
}
