/**
 * What the layers of the balancer tree share (ARCHITECTURE.md, "The load-balancing tree"): the
 * subchannel set of the endpoint leaf and the hash balancer, an endpoint's locality holder, the
 * child helper, publish on change, the "same picker inputs" check, the endpoint policy a priority
 * is fed, the answer to a config of the wrong type and the text for an absent resource. Their
 * state lives on the channel's SynchronizationContext; only an endpoint's locality is also read
 * from RPC threads.
 */
package io.jxds.balancer.internal.tree;
