package io.jxds.api.model.filter;

/**
 * The config of an HTTP filter jxds runs, from a listener's {@code http_filters[].typed_config}
 * or from a {@code typed_per_filter_config} override, which replaces the listener's config of the
 * filter of its name for the calls of its virtual host, route or weighted cluster (gRFC A39).
 */
public sealed interface HttpFilterConfig permits FaultConfig {}
