package io.jxds.balancer.internal.eds;

import io.jxds.api.model.LogicalDns;
import io.jxds.api.model.OutlierDetection;
import io.jxds.balancer.internal.tree.EndpointPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the CDS layer tells the EDS layer.
 *
 * @param cluster the cluster's name, used in errors and for the circuit-breaker counter
 * @param edsServiceName the ClusterLoadAssignment to watch
 * @param maxConcurrentRequests the circuit breaker's limit of open streams
 * @param failoverTimeout the priority layer's failover timer
 * @param childRetention how long the priority layer keeps a deactivated child
 * @param policy how each priority picks its endpoints (a change re-feeds the priorities)
 * @param loadReporting whether the cluster's {@code lrs_server} asks for load reports (LRS)
 * @param outlierDetection the cluster's {@code outlier_detection} (gRFC A50), empty when it has none
 * @param logicalDns a LOGICAL_DNS cluster's name (gRFC A37): its endpoint comes from DNS, nothing is
 *     watched; empty for an EDS cluster
 */
public record EdsConfig(
    String cluster,
    String edsServiceName,
    long maxConcurrentRequests,
    Duration failoverTimeout,
    Duration childRetention,
    EndpointPolicy policy,
    boolean loadReporting,
    Optional<OutlierDetection> outlierDetection,
    Optional<LogicalDns> logicalDns) {
  public EdsConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(edsServiceName, "edsServiceName");
    Objects.requireNonNull(failoverTimeout, "failoverTimeout");
    Objects.requireNonNull(childRetention, "childRetention");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(outlierDetection, "outlierDetection");
    Objects.requireNonNull(logicalDns, "logicalDns");
  }

  /** An EDS cluster's config. */
  public EdsConfig(
      String cluster, String edsServiceName, long maxConcurrentRequests, Duration failoverTimeout,
      Duration childRetention, EndpointPolicy policy, boolean loadReporting,
      Optional<OutlierDetection> outlierDetection) {
    this(cluster, edsServiceName, maxConcurrentRequests, failoverTimeout, childRetention, policy, loadReporting,
        outlierDetection, Optional.empty());
  }

  /** A config without outlier detection. */
  public EdsConfig(
      String cluster, String edsServiceName, long maxConcurrentRequests, Duration failoverTimeout,
      Duration childRetention, EndpointPolicy policy, boolean loadReporting) {
    this(cluster, edsServiceName, maxConcurrentRequests, failoverTimeout, childRetention, policy, loadReporting,
        Optional.empty(), Optional.empty());
  }

  /** A round-robin cluster's config, without load reporting. */
  public EdsConfig(
      String cluster, String edsServiceName, long maxConcurrentRequests, Duration failoverTimeout,
      Duration childRetention) {
    this(cluster, edsServiceName, maxConcurrentRequests, failoverTimeout, childRetention,
        EndpointPolicy.ROUND_ROBIN, false, Optional.empty(), Optional.empty());
  }
}
