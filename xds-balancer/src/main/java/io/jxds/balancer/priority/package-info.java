/** gRFC A56 priority failover: {@link io.jxds.balancer.priority.PriorityBalancer}. */
package io.jxds.balancer.priority;
