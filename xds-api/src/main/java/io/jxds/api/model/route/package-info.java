/**
 * The immutable model of what a RouteConfiguration (RDS resource, or a Listener's inline routes)
 * says: {@link io.jxds.api.model.route.VirtualHost virtual hosts}, their
 * {@link io.jxds.api.model.route.Route routes}, each a {@link io.jxds.api.model.route.RouteMatch
 * match} and a {@link io.jxds.api.model.route.RouteAction action}.
 *
 * <p>The matchers say what they match ({@code matches} methods): path and header matching as the
 * xDS API and gRFC A28 define it (with gRFC A63's {@code string_match}). Choosing a virtual host
 * for an authority, reading a call's headers and drawing random numbers is the client's business,
 * not the model's.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api.model.route;

import org.jspecify.annotations.NullMarked;
