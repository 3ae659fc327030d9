/**
 * The configs of the HTTP filters jxds runs on a call (gRFC A39): a listener's
 * {@code http_filters} entry and the {@code typed_per_filter_config} overrides of virtual hosts,
 * routes and weighted clusters. jxds runs one filter besides the router: fault injection
 * ({@link io.jxds.api.model.filter.FaultConfig}, gRFC A33).
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api.model.filter;

import org.jspecify.annotations.NullMarked;
