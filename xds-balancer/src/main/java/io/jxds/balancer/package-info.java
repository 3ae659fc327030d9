/**
 * The jxds load-balancing tree for gRPC Java. Each layer is a {@link io.grpc.LoadBalancer} with a
 * typed config record: {@link io.jxds.balancer.internal.priority.PriorityBalancer} ({@link
 * io.jxds.balancer.internal.priority.PriorityConfig}) over {@link io.jxds.balancer.internal.locality.LocalityBalancer}
 * ({@link io.jxds.balancer.internal.locality.LocalityGroup}) over {@link
 * io.jxds.balancer.internal.endpoint.EndpointBalancer} ({@link io.jxds.balancer.internal.endpoint.EndpointGroup}).
 */
package io.jxds.balancer;
