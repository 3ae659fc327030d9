/**
 * Aggregate clusters (gRFC A37, with A75's corrections): the tree of underlying clusters is
 * resolved here, and its leaves run as the children of one priority layer.
 */
package io.jxds.balancer.internal.aggregate;
