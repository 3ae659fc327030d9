package io.jxds.api.internal.route;

import io.jxds.api.model.route.ClusterWeight;
import io.jxds.api.model.route.HeaderMatcher;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.RouteAction;
import io.jxds.api.model.route.RuntimeFraction;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * One route of a {@link RouteTable}, ready to match calls and to choose their cluster. Immutable,
 * safe on any thread.
 *
 * <p>Weighted choice (gRFC A28): with weights w0..wn and total T, a draw r uniform in [0, T) picks
 * the first entry whose running sum exceeds r. For weights 90, 10: r in [0, 90) picks the first
 * cluster, [90, 100) the second; a weight-0 entry is never picked. The running sums are computed
 * once, and the pick is a binary search over them.
 */
public final class RouteEntry {
  private final Route route;
  final PathMatch path;
  final int pathIndex; // the table's index of this path matcher, shared by equal ones
  final HeaderMatcher[] headers;
  final int[] readerIndex; // headers[i]'s value is read by the table's reader readerIndex[i]
  private final @Nullable RuntimeFraction fraction;
  private final String[] clusters; // empty when the route does not forward
  private final long[] runningSums;
  private final int index;

  RouteEntry(Route route, int index, PathMatch path, int pathIndex, Map<String, Integer> headerIndex) {
    this.route = route;
    this.index = index;
    this.path = path;
    this.pathIndex = pathIndex;
    List<HeaderMatcher> h = route.match().headers();
    this.headers = h.toArray(new HeaderMatcher[0]);
    this.readerIndex = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      Integer reader = headerIndex.get(headers[i].name());
      if (reader == null) {
        throw new IllegalArgumentException("no reader for header " + headers[i].name());
      }
      readerIndex[i] = reader;
    }
    this.fraction = route.match().runtimeFraction().orElse(null);
    RouteAction action = route.action();
    if (action instanceof RouteAction.Cluster c) {
      clusters = new String[] {c.name()};
      runningSums = new long[] {1};
    } else if (action instanceof RouteAction.WeightedClusters w) {
      List<ClusterWeight> entries = w.clusters();
      clusters = new String[entries.size()];
      runningSums = new long[entries.size()];
      long sum = 0;
      for (int i = 0; i < clusters.length; i++) {
        clusters[i] = entries.get(i).name();
        sum += entries.get(i).weight();
        runningSums[i] = sum;
      }
    } else {
      clusters = new String[0];
      runningSums = new long[0];
    }
  }

  /**
   * The route as the model gives it.
   *
   * @return the route
   */
  public Route route() {
    return route;
  }

  /**
   * The route's position in its table, from 0: what a caller that keeps something per route
   * indexes it by.
   *
   * @return the index
   */
  public int index() {
    return index;
  }

  /**
   * The clusters of the route's action, in order: one for {@code cluster}, each entry of {@code
   * weighted_clusters}, none when the route does not forward.
   *
   * @return the cluster names, as {@link #chooseClusterIndex} indexes them
   */
  public List<String> clusters() {
    return List.of(clusters);
  }

  /** Whether the runtime fraction, if any, matches every call (none, or at least whole). */
  boolean fractionAlwaysMatches() {
    RuntimeFraction f = fraction;
    return f == null || f.numerator() >= f.denominator();
  }

  /**
   * Whether the route matches every call: its path matcher every path, no header matcher, no
   * fraction that can fail. The routes after such a route are never tried.
   */
  boolean unconditional() {
    return headers.length == 0 && fractionAlwaysMatches() && path.matchesEveryPath();
  }

  /**
   * Whether the runtime fraction lets the call through (the path and headers matched), drawn from
   * {@code random} only when the fraction is neither 0 nor whole.
   */
  boolean fractionMatches(RandomGenerator random) {
    RuntimeFraction f = fraction;
    if (f == null || f.numerator() >= f.denominator()) {
      return true;
    }
    return f.numerator() != 0 && f.matches(random.nextLong(f.denominator()));
  }

  /**
   * Chooses the cluster of one call: once per call, so that its attempts stay on one cluster (gRFC
   * A31).
   *
   * @param random where the weighted draw comes from (no draw for a single cluster)
   * @return the cluster, or null when the route does not forward
   *     ({@link RouteAction.NotForwarded}): the call fails naming the route
   */
  public @Nullable String chooseCluster(RandomGenerator random) {
    int i = chooseClusterIndex(random);
    return i < 0 ? null : clusters[i];
  }

  /**
   * {@link #chooseCluster} as an index into {@link #clusters()}, for callers that keep something
   * per cluster: the same draw, the same choice.
   *
   * @param random where the weighted draw comes from (no draw for a single cluster)
   * @return the index of the chosen cluster, or -1 when the route does not forward
   */
  public int chooseClusterIndex(RandomGenerator random) {
    if (clusters.length <= 1) {
      return clusters.length - 1;
    }
    return indexForDraw(random.nextLong(totalWeight()));
  }

  /**
   * The sum of the weights: what a draw is taken below.
   *
   * @return the total weight; 1 for a single cluster, 0 when the route does not forward
   */
  public long totalWeight() {
    return runningSums.length == 0 ? 0 : runningSums[runningSums.length - 1];
  }

  /**
   * The cluster a draw picks.
   *
   * @param draw in [0, {@link #totalWeight()})
   * @return the first cluster whose running sum of weights exceeds {@code draw}
   * @throws IllegalArgumentException if the draw is out of range or the route does not forward
   */
  public String clusterForDraw(long draw) {
    if (draw < 0 || draw >= totalWeight()) {
      throw new IllegalArgumentException("draw must be in [0, " + totalWeight() + "), got " + draw);
    }
    return clusters[indexForDraw(draw)];
  }

  private int indexForDraw(long draw) {
    int low = 0;
    int high = runningSums.length - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (runningSums[mid] > draw) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  @Override
  public String toString() {
    return route.name();
  }
}
