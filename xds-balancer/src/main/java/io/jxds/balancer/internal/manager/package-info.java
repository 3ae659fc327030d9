/**
 * The cluster manager (ARCHITECTURE.md, "Routing each call"): one {@code xds_cluster} child per
 * cluster the route table names, and a picker that sends each call to the child of the cluster its
 * route chose ({@link io.jxds.balancer.internal.manager.ChosenCluster}).
 */
package io.jxds.balancer.internal.manager;
