/**
 * Outlier detection (gRFC A50) for one cluster: calls counted per endpoint across its priorities
 * and localities, the success-rate and failure-percentage sweeps, and ejection by reporting an
 * endpoint's subchannels TRANSIENT_FAILURE to the balancers that own them.
 */
package io.jxds.balancer.internal.outlier;
