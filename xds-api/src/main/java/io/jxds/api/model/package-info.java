/**
 * The immutable model of validated xDS resources: {@link io.jxds.api.model.ClusterUpdate} (CDS)
 * and {@link io.jxds.api.model.EndpointsUpdate} (EDS), and the values inside them.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api.model;

import org.jspecify.annotations.NullMarked;
