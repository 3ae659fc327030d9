/**
 * The immutable model of validated xDS resources: {@link io.jxds.api.model.ClusterUpdate} (CDS),
 * {@link io.jxds.api.model.EndpointsUpdate} (EDS), {@link io.jxds.api.model.ListenerUpdate} (LDS)
 * and {@link io.jxds.api.model.RouteConfigurationUpdate} (RDS), and the values inside them; the
 * parts of a route configuration are in {@link io.jxds.api.model.route}.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api.model;

import org.jspecify.annotations.NullMarked;
