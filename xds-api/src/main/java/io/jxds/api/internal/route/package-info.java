/**
 * The route-matching engine (not API): the virtual host for an authority, the first route that
 * matches a call, and the cluster of a weighted route for a random draw, as gRFC A27 and A28
 * define them. Pure functions of the model and their inputs, run per call: the xDS resolver of
 * xds-balancer and the control-plane toolkit use this same code.
 */
@NullMarked
package io.jxds.api.internal.route;

import org.jspecify.annotations.NullMarked;
