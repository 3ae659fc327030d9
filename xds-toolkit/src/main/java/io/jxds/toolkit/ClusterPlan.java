package io.jxds.toolkit;

import io.jxds.api.model.LbPolicy;
import io.jxds.api.model.LocalityId;
import io.jxds.api.model.OutlierDetection;
import io.jxds.api.model.UpstreamTlsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a jxds channel on this cluster does, assuming every usable endpoint is reachable: which
 * priority serves, every locality's and endpoint's share of the picked RPCs, what is dropped, the
 * circuit breaker and TLS. Computed by the balancer's own code (ARCHITECTURE.md, "The
 * load-balancing tree").
 *
 * @param name the cluster's name
 * @param state whether it serves, and if not why
 * @param detail what its RPCs fail with when it does not serve; empty when it serves
 * @param edsServiceName the name its endpoints are watched under; empty when the cluster was NACKed
 * @param lbPolicy its endpoint-picking policy; empty when the cluster was NACKed
 * @param shareBasis what the shares mean for this policy
 * @param servingPriority the priority that serves
 * @param nextPriority the priority that would serve if the serving one failed
 * @param priorities every priority of the assignment, in order
 * @param unweightedLocalities localities the assignment gives no weight (unset or 0): they take no
 *     traffic (gRFC A27)
 * @param drops the drop categories, in order
 * @param dropped the share of all RPCs dropped, every category together
 * @param maxConcurrentRequests the circuit breaker: RPCs in flight beyond it fail (gRFC A32)
 * @param loadReporting whether the client reports load for it ({@code lrs_server: self})
 * @param tls what its connections require; empty for plaintext
 * @param outlierDetection the outlier detection its balancer runs (gRFC A50): the cluster's
 *     {@code outlier_detection} with the defaults filled in; empty when off (unset, or neither the
 *     success-rate nor the failure-percentage algorithm is enforced, so nothing is ejected)
 */
public record ClusterPlan(
    String name,
    State state,
    String detail,
    String edsServiceName,
    Optional<LbPolicy> lbPolicy,
    ShareBasis shareBasis,
    OptionalInt servingPriority,
    OptionalInt nextPriority,
    List<PriorityPlan> priorities,
    List<LocalityId> unweightedLocalities,
    List<DropPlan> drops,
    Fraction dropped,
    long maxConcurrentRequests,
    boolean loadReporting,
    Optional<UpstreamTlsSettings> tls,
    Optional<OutlierDetection> outlierDetection) {
  /** Whether a cluster serves. */
  public enum State {
    /** A priority serves. */
    SERVING,
    /** The assignment has no HEALTHY or UNKNOWN endpoint in a weighted locality: RPCs fail at once. */
    NO_USABLE_ENDPOINTS,
    /** The snapshot has no ClusterLoadAssignment of its EDS service name: RPCs wait, then fail. */
    ENDPOINTS_MISSING,
    /** Its ClusterLoadAssignment would be NACKED: without an earlier good one, RPCs fail. */
    ENDPOINTS_NACKED,
    /** The Cluster would be NACKED: without an earlier good one, RPCs fail. */
    CLUSTER_NACKED
  }

  /** What a share means for the cluster's policy. */
  public enum ShareBasis {
    /** Round robin: the exact share of the picker's smooth weighted cycle. */
    PICK_CYCLE,
    /**
     * Least request: the share while endpoints are equally busy (then it walks the same smooth
     * weighted cycle); under uneven load it moves toward the less busy endpoints.
     */
    EQUAL_LOAD,
    /** Ring hash and maglev: the share of uniformly random request hashes (gRFC A42). */
    RANDOM_HASHES,
    /** No shares: the cluster does not serve. */
    NONE
  }

  /**
   * Checks the components; the lists are copied.
   *
   * @param name the name
   * @param state the state
   * @param detail the failure text
   * @param edsServiceName the EDS service name
   * @param lbPolicy the policy
   * @param shareBasis what shares mean
   * @param servingPriority the serving priority
   * @param nextPriority the next priority
   * @param priorities the priorities
   * @param unweightedLocalities localities without weight
   * @param drops the drop categories
   * @param dropped the total drop rate
   * @param maxConcurrentRequests the circuit breaker
   * @param loadReporting whether load is reported
   * @param tls the TLS settings
   * @param outlierDetection the outlier detection, empty when off
   */
  public ClusterPlan {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(edsServiceName, "edsServiceName");
    Objects.requireNonNull(lbPolicy, "lbPolicy");
    Objects.requireNonNull(shareBasis, "shareBasis");
    Objects.requireNonNull(servingPriority, "servingPriority");
    Objects.requireNonNull(nextPriority, "nextPriority");
    priorities = List.copyOf(priorities);
    unweightedLocalities = List.copyOf(unweightedLocalities);
    drops = List.copyOf(drops);
    Objects.requireNonNull(dropped, "dropped");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(outlierDetection, "outlierDetection");
  }

  /**
   * A plan without outlier detection (the form before outlier detection was planned).
   *
   * @param name the name
   * @param state the state
   * @param detail the failure text
   * @param edsServiceName the EDS service name
   * @param lbPolicy the policy
   * @param shareBasis what shares mean
   * @param servingPriority the serving priority
   * @param nextPriority the next priority
   * @param priorities the priorities
   * @param unweightedLocalities localities without weight
   * @param drops the drop categories
   * @param dropped the total drop rate
   * @param maxConcurrentRequests the circuit breaker
   * @param loadReporting whether load is reported
   * @param tls the TLS settings
   */
  public ClusterPlan(String name, State state, String detail, String edsServiceName, Optional<LbPolicy> lbPolicy,
      ShareBasis shareBasis, OptionalInt servingPriority, OptionalInt nextPriority, List<PriorityPlan> priorities,
      List<LocalityId> unweightedLocalities, List<DropPlan> drops, Fraction dropped, long maxConcurrentRequests,
      boolean loadReporting, Optional<UpstreamTlsSettings> tls) {
    this(name, state, detail, edsServiceName, lbPolicy, shareBasis, servingPriority, nextPriority, priorities,
        unweightedLocalities, drops, dropped, maxConcurrentRequests, loadReporting, tls, Optional.empty());
  }

  /**
   * The outlier detection the cluster's balancer runs, if {@code outlier_detection} enforces an
   * algorithm: what the outlier detector reads (it counts and ejects only then).
   *
   * @param cluster the cluster's {@code outlier_detection}, decoded
   * @return the effective settings, empty when off
   */
  public static Optional<OutlierDetection> effective(Optional<OutlierDetection> cluster) {
    return cluster.filter(OutlierDetection::enabled);
  }

  /**
   * Every locality of every priority, in order.
   *
   * @return the localities
   */
  public List<LocalityPlan> localities() {
    List<LocalityPlan> all = new ArrayList<>();
    for (PriorityPlan p : priorities) {
      all.addAll(p.localities());
    }
    return all;
  }

  /**
   * Every endpoint of every priority, in order.
   *
   * @return the endpoints
   */
  public List<EndpointPlan> endpoints() {
    List<EndpointPlan> all = new ArrayList<>();
    for (PriorityPlan p : priorities) {
      for (LocalityPlan l : p.localities()) {
        all.addAll(l.endpoints());
      }
    }
    return all;
  }

  /**
   * An endpoint by address.
   *
   * @param address {@code ip:port}, {@code [ip6]:port} for IPv6
   * @return the endpoint, empty when the cluster has none at that address
   */
  public Optional<EndpointPlan> endpoint(String address) {
    return endpoints().stream().filter(e -> e.address().equals(address)).findFirst();
  }

  /**
   * A locality of the serving priority, else of the first priority that has it.
   *
   * @param region its region
   * @param zone its zone
   * @param subZone its sub-zone
   * @return the locality, empty when the cluster has none such
   */
  public Optional<LocalityPlan> locality(String region, String zone, String subZone) {
    LocalityId id = new LocalityId(region, zone, subZone);
    List<LocalityPlan> all = localities();
    Optional<LocalityPlan> serving = all.stream()
        .filter(l -> l.id().equals(id) && servingPriority.isPresent() && l.priority() == servingPriority.getAsInt())
        .findFirst();
    return serving.isPresent() ? serving : all.stream().filter(l -> l.id().equals(id)).findFirst();
  }

  /**
   * The priority with this number.
   *
   * @param priority the number, as the assignment has it
   * @return the priority, empty when the assignment has none such
   */
  public Optional<PriorityPlan> priority(int priority) {
    return priorities.stream().filter(p -> p.priority() == priority).findFirst();
  }
}
