/** The endpoint leaf: {@link io.jxds.balancer.internal.endpoint.EndpointBalancer}, weighted round robin. */
package io.jxds.balancer.internal.endpoint;
