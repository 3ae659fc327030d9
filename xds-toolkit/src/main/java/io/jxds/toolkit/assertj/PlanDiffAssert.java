package io.jxds.toolkit.assertj;

import io.jxds.toolkit.Change;
import io.jxds.toolkit.PlanDiff;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link PlanDiff}. */
public final class PlanDiffAssert extends AbstractAssert<PlanDiffAssert, PlanDiff> {
  PlanDiffAssert(PlanDiff actual) {
    super(actual, PlanDiffAssert.class);
  }

  /**
   * Checks that the push changes nothing for traffic.
   *
   * @return this
   */
  public PlanDiffAssert changesNothing() {
    isNotNull();
    if (!actual.isEmpty()) {
      failWithMessage("Expected no change, but the push changes:%n%s", lines(actual.changes()));
    }
    return this;
  }

  /**
   * Checks that no resource would be NACKed after the push.
   *
   * @return this
   */
  public PlanDiffAssert hasNoNacks() {
    isNotNull();
    List<Change> nacks = actual.ofKind(Change.Kind.NACK);
    if (!nacks.isEmpty()) {
      failWithMessage("Expected no NACK after the push, but:%n%s", lines(nacks));
    }
    return this;
  }

  /**
   * Checks that no cluster changes state (none is left without usable endpoints, none appears
   * failing) and none is removed.
   *
   * @return this
   */
  public PlanDiffAssert keepsEveryClusterServing() {
    isNotNull();
    List<Change> bad = actual.changes().stream()
        .filter(c -> c.kind() == Change.Kind.STATE || c.kind() == Change.Kind.CLUSTER_REMOVED)
        .toList();
    if (!bad.isEmpty()) {
      failWithMessage("Expected every cluster to keep serving, but:%n%s", lines(bad));
    }
    return this;
  }

  /**
   * Checks that no endpoint's share moves by more than {@code points} percentage points.
   *
   * @param points the largest move allowed, e.g. {@code 10} for ten points
   * @return this
   */
  public PlanDiffAssert movesNoEndpointShareByMoreThan(double points) {
    isNotNull();
    List<Change> big = actual.ofKind(Change.Kind.ENDPOINT_SHARE).stream()
        .filter(c -> c.delta().map(d -> Math.abs(d.toDouble()) * 100 > points).orElse(false))
        .toList();
    if (!big.isEmpty()) {
      failWithMessage("Expected no endpoint share to move by more than %s points, but:%n%s", points, lines(big));
    }
    return this;
  }

  /**
   * Checks that an endpoint's share moves by this much (a decimal, within 1e-9).
   *
   * @param cluster the cluster
   * @param address the endpoint's {@code ip:port}
   * @param delta the expected move, after minus before
   * @return this
   */
  public PlanDiffAssert movesShareOf(String cluster, String address, double delta) {
    isNotNull();
    Optional<Change> change = actual.cluster(cluster).stream()
        .filter(c -> c.kind() == Change.Kind.ENDPOINT_SHARE && c.subject().equals(address))
        .findFirst();
    double actualDelta = change.flatMap(Change::delta).map(d -> d.toDouble()).orElse(0.0);
    if (Math.abs(actualDelta - delta) > Shares.DECIMAL_TOLERANCE) {
      failWithMessage("Expected the share of %s in %s to move by %s, but it moves by %s", address, cluster, delta,
          change.map(Change::toString).orElse("0"));
    }
    return this;
  }

  private static String lines(List<Change> changes) {
    StringBuilder s = new StringBuilder();
    for (Change c : changes) {
      s.append("  ").append(c).append(System.lineSeparator());
    }
    return s.toString();
  }
}
