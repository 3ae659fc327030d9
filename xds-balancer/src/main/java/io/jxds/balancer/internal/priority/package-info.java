/** gRFC A56 priority failover: {@link io.jxds.balancer.internal.priority.PriorityBalancer}. */
package io.jxds.balancer.internal.priority;
