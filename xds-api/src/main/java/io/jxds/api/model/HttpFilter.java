package io.jxds.api.model;

import io.jxds.api.model.filter.HttpFilterConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * One of a Listener's {@code http_filters} that jxds runs (gRFC A39): a filter whose type jxds
 * does not know is either NACKed or, when {@code is_optional}, left out, so it is never here.
 *
 * @param name the filter instance's {@code name}, unique in the listener (what
 *     {@code typed_per_filter_config} keys name)
 * @param typeUrl the type of its {@code typed_config}, a {@code TypedStruct} unwrapped, e.g.
 *     {@value #ROUTER_TYPE_URL}
 * @param optional {@code is_optional}
 * @param config what the filter does on a call, for a filter that does something besides routing
 *     (fault injection); empty for the router
 */
public record HttpFilter(String name, String typeUrl, boolean optional, Optional<HttpFilterConfig> config) {
  /** The router filter's config type, the last filter of every listener. */
  public static final String ROUTER_TYPE_URL = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";
  /** The fault-injection filter's config type (gRFC A33). */
  public static final String FAULT_TYPE_URL = "type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault";

  /**
   * Checks the components.
   *
   * @param name the filter's name, not empty
   * @param typeUrl its config type, not empty
   * @param optional {@code is_optional}
   * @param config the filter's config
   * @throws IllegalArgumentException if a string is empty
   */
  public HttpFilter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(typeUrl, "typeUrl");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name must not be empty");
    }
    if (typeUrl.isEmpty()) {
      throw new IllegalArgumentException("typeUrl must not be empty");
    }
  }

  /**
   * A filter without a config of its own (the router).
   *
   * @param name the filter's name, not empty
   * @param typeUrl its config type, not empty
   * @param optional {@code is_optional}
   */
  public HttpFilter(String name, String typeUrl, boolean optional) {
    this(name, typeUrl, optional, Optional.empty());
  }

  /**
   * The router filter under the name envoy gives it.
   *
   * @return {@code envoy.filters.http.router}, not optional
   */
  public static HttpFilter router() {
    return new HttpFilter("envoy.filters.http.router", ROUTER_TYPE_URL, false);
  }

  /**
   * Whether this is the router filter.
   *
   * @return true when its type is {@value #ROUTER_TYPE_URL}
   */
  public boolean isRouter() {
    return ROUTER_TYPE_URL.equals(typeUrl);
  }
}
