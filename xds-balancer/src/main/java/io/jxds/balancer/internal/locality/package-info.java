/** Weighted aggregation of a priority's localities: {@link io.jxds.balancer.internal.locality.LocalityBalancer}. */
package io.jxds.balancer.internal.locality;
