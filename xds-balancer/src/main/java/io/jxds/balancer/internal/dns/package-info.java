/**
 * LOGICAL_DNS clusters (gRFC A37): the cluster's {@code host:port}, resolved by gRPC's own DNS
 * resolver, as one endpoint whose addresses are tried in order (ARCHITECTURE.md, "The
 * load-balancing tree").
 */
package io.jxds.balancer.internal.dns;
