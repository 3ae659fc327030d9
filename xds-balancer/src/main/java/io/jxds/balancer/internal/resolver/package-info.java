/**
 * The {@code xds:} and {@code jxds:} name resolvers (ARCHITECTURE.md, "Routing each call"): the
 * target's listener name, the route table, the cluster each call is routed to once (gRFC A31's
 * config selector, through {@link io.jxds.balancer.internal.resolver.ConfigSelectorAdapter}), and
 * the clusters' reference counts that keep a cluster while calls use it.
 */
package io.jxds.balancer.internal.resolver;
