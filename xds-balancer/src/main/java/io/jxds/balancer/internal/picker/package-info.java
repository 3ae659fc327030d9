/**
 * Building blocks shared by the jxds balancers' pickers: the smooth weighted order, a per-thread
 * pick cursor, and the failing and queuing pickers. Pickers are immutable snapshots, built on the
 * channel's SynchronizationContext and read from RPC threads.
 */
package io.jxds.balancer.internal.picker;
