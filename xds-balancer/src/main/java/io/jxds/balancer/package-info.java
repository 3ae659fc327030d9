/**
 * The jxds load-balancing tree for gRPC Java. Each layer is a {@link io.grpc.LoadBalancer} with a
 * typed config record: {@link io.jxds.balancer.internal.priority.PriorityBalancer} ({@link
 * io.jxds.balancer.internal.priority.PriorityConfig}) over {@link io.jxds.balancer.internal.locality.LocalityBalancer}
 * ({@link io.jxds.balancer.internal.locality.LocalityGroup}) over {@link
 * io.jxds.balancer.internal.endpoint.EndpointBalancer} ({@link io.jxds.balancer.internal.endpoint.EndpointGroup}).
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.balancer;

import org.jspecify.annotations.NullMarked;
