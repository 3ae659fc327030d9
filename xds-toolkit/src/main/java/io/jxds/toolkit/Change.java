package io.jxds.toolkit;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing a push changes for traffic ({@link PlanDiff}).
 *
 * @param kind what changed
 * @param cluster the cluster it concerns; empty for a resource's verdict, a listener and a route
 *     (but a route's cluster for {@link Kind#ROUTE_SHARE})
 * @param subject what in the cluster: an endpoint's address, a locality, a drop category, a
 *     resource ({@code CDS "payments"}), a listener ({@code listener svc}), a route
 *     ({@code route svc/vh/split}); empty for the cluster itself
 * @param before the value before, as text ({@code 1/4}, {@code SERVING}, {@code absent})
 * @param after the value after, as text
 * @param delta for a share or drop rate, after minus before
 */
public record Change(Kind kind, String cluster, String subject, String before, String after, Optional<Fraction> delta) {
  /** What changed. */
  public enum Kind {
    /** A cluster appears. */
    CLUSTER_ADDED,
    /** A cluster goes away: its channels fail. */
    CLUSTER_REMOVED,
    /** A cluster's state changes, e.g. it is left without usable endpoints. */
    STATE,
    /** Another priority serves (a failover or a failback). */
    SERVING_PRIORITY,
    /** The endpoint-picking policy changes. */
    LB_POLICY,
    /** A locality's share of the cluster's picked RPCs moves. */
    LOCALITY_SHARE,
    /** An endpoint's share of the cluster's picked RPCs moves (from or to 0 when it comes or goes). */
    ENDPOINT_SHARE,
    /** A drop category's rate moves. */
    DROP_RATE,
    /** The circuit breaker's limit changes. */
    CIRCUIT_BREAKER,
    /** What connections require of TLS changes. */
    TLS,
    /** Outlier detection (gRFC A50) is turned on or off, or its settings change. */
    OUTLIER_DETECTION,
    /** A listener appears. */
    LISTENER_ADDED,
    /** A listener goes away: its channels fail. */
    LISTENER_REMOVED,
    /** A listener's state changes, e.g. its route configuration goes missing. */
    LISTENER_STATE,
    /** A route appears (subject {@code route LISTENER/VIRTUAL_HOST/ROUTE}). */
    ROUTE_ADDED,
    /** A route goes away. */
    ROUTE_REMOVED,
    /** A route's position, match or action changes. */
    ROUTE_CHANGED,
    /** A cluster's share of a route's calls moves (from or to 0 when it comes or goes). */
    ROUTE_SHARE,
    /** A cluster that a route named before is named by none after: no call reaches it. */
    CLUSTER_UNROUTED,
    /** A resource would be NACKed after the push. */
    NACK
  }

  /**
   * Checks the components.
   *
   * @param kind what changed
   * @param cluster the cluster, possibly empty
   * @param subject what in it, possibly empty
   * @param before the value before
   * @param after the value after
   * @param delta the change of a share or rate
   */
  public Change {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(delta, "delta");
  }

  /** One line: {@code payments 10.0.0.3:8080: ENDPOINT_SHARE 1/4 -> 3/8 (+12.500 points)}. */
  @Override
  public String toString() {
    String where = cluster.isEmpty() ? subject : subject.isEmpty() ? cluster : cluster + " " + subject;
    return where + ": " + kind + " " + before + " -> " + after
        + delta.map(d -> String.format(java.util.Locale.ROOT, " (%+.3f points)", d.toDouble() * 100)).orElse("");
  }
}
