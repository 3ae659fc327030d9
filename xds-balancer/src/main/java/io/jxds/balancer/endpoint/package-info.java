/** The endpoint leaf: {@link io.jxds.balancer.endpoint.EndpointBalancer}, weighted round robin. */
package io.jxds.balancer.endpoint;
