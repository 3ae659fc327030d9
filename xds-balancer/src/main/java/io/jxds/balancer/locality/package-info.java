/** Weighted aggregation of a priority's localities: {@link io.jxds.balancer.locality.LocalityBalancer}. */
package io.jxds.balancer.locality;
