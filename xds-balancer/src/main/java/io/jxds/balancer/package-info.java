/**
 * The jxds load-balancing tree for gRPC Java. Each layer is a {@link io.grpc.LoadBalancer} with a
 * typed config record: {@link io.jxds.balancer.priority.PriorityBalancer} ({@link
 * io.jxds.balancer.priority.PriorityConfig}) over {@link io.jxds.balancer.locality.LocalityBalancer}
 * ({@link io.jxds.balancer.locality.LocalityGroup}) over {@link
 * io.jxds.balancer.endpoint.EndpointBalancer} ({@link io.jxds.balancer.endpoint.EndpointGroup}).
 */
package io.jxds.balancer;
