package io.jxds.balancer.internal.endpoint;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.internal.picker.OpenStreams;
import io.jxds.balancer.internal.tree.PickerInputs;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * Least request over the READY endpoints of one locality (gRFC A48, with envoy's rule for unequal
 * weights).
 *
 * <ul>
 *   <li><b>Equal weights</b>: draw {@code choice_count} endpoints uniformly at random (with
 *       replacement) and take the one with the fewest outstanding RPCs; a tie goes to the first
 *       drawn. Two endpoints with 0 and 5 RPCs and choice count 2: the idle one is drawn at least
 *       once with probability 3/4, so it gets 75 % of new RPCs until the other drains.
 *   <li><b>Unequal weights</b> (envoy's {@code least_request} with weights, which gRPC clients do
 *       not have): an endpoint's effective weight is {@code weight / (active + 1)^bias}, and a
 *       pick chooses endpoint i with probability {@code e_i / Σe}. Drawn by rejection: endpoint
 *       i is drawn in proportion to its weight (an alias table, O(1)) and accepted with
 *       probability {@code (active_i + 1)^-bias}; accepted draws are distributed exactly as
 *       {@code e_i / Σe}. Worked number: weights 1, 2, 4 with 0, 1, 3 RPCs and bias 1 give
 *       effective weights 1, 1, 1: a third each. After {@value #MAX_DRAWS} rejected draws (all
 *       endpoints busy) the drawn endpoint with the largest effective weight is taken, so a pick
 *       stays O(1).
 * </ul>
 *
 * <p>Outstanding RPCs are counted per endpoint by {@link OpenStreams}, whose tracer the picker
 * attaches to each pick (the counts belong to the endpoints and outlive pickers). Random indexes
 * come from one 64-bit draw per two choices, mapped to [0, n) by a multiply and a shift rather
 * than a division (bias below n / 2^32). Immutable apart from those counters; safe on any thread;
 * a pick allocates nothing.
 */
final class LeastRequestPicker extends SubchannelPicker {
  static final int MAX_DRAWS = 16;

  private final List<Subchannel> subchannels;
  private final long[] weights;
  private final LbPolicy.LeastRequest policy;
  private final AtomicLong[] active;
  private final PickResult[] results;
  private final RandomGenerator random;
  private final boolean equalWeights;
  private final int choiceCount;
  private final double bias;
  /**
   * Vose's alias table over the weights, one {@code long} a slot so that a draw reads one array:
   * slot i keeps i with probability {@code keep[i]}, else takes {@code alias[i]}; the high 32 bits
   * hold that probability as a threshold for a 32-bit unsigned draw, the low 32 bits the alias. A
   * slot that always keeps is its own alias (so the threshold's one missing value changes nothing).
   */
  private final long[] aliasTable;

  LeastRequestPicker(
      List<Subchannel> subchannels,
      long[] weights,
      List<OpenStreams> active,
      LbPolicy.LeastRequest policy,
      RandomGenerator random) {
    this.subchannels = List.copyOf(subchannels);
    this.weights = weights.clone();
    this.policy = policy;
    this.random = random;
    this.bias = policy.activeRequestBias();
    this.choiceCount = policy.choiceCount();
    int n = subchannels.size();
    this.active = new AtomicLong[n];
    this.results = new PickResult[n];
    boolean equal = true;
    for (int i = 0; i < n; i++) {
      this.active[i] = active.get(i).counter();
      results[i] = PickResult.withSubchannel(subchannels.get(i), active.get(i).tracerFactory());
      equal &= weights[i] == weights[0];
    }
    this.equalWeights = equal;
    this.aliasTable = new long[n];
    if (!equal) {
      double[] keep = new double[n];
      int[] alias = new int[n];
      buildAliasTable(this.weights, keep, alias);
      for (int i = 0; i < n; i++) {
        long keepBelow = keep[i] >= 1 ? 0xFFFF_FFFFL : (long) (keep[i] * 0x1p32);
        int to = keep[i] >= 1 ? i : alias[i];
        aliasTable[i] = keepBelow << 32 | (to & 0xFFFF_FFFFL);
      }
    }
  }

  @Override
  public PickResult pickSubchannel(PickSubchannelArgs args) {
    return results[equalWeights ? fewestActive() : weightedByActive()];
  }

  private int fewestActive() {
    int n = results.length;
    if (choiceCount == 2) { // the default: one draw, two indexes
      long bits = random.nextLong();
      int first = index(bits >>> 32, n);
      int second = index(bits & 0xFFFF_FFFFL, n);
      return active[second].get() < active[first].get() ? second : first;
    }
    int best = 0;
    long bestActive = Long.MAX_VALUE;
    long bits = 0;
    for (int k = 0; k < choiceCount; k++) {
      int candidate;
      if ((k & 1) == 0) {
        bits = random.nextLong();
        candidate = index(bits >>> 32, n);
      } else {
        candidate = index(bits & 0xFFFF_FFFFL, n);
      }
      long candidateActive = active[candidate].get();
      if (candidateActive < bestActive) {
        best = candidate;
        bestActive = candidateActive;
      }
    }
    return best;
  }

  /** Maps a uniform 32-bit value to [0, n) by multiply and shift. */
  private static int index(long uniform32, int n) {
    return (int) ((uniform32 * n) >>> 32);
  }

  private int weightedByActive() {
    int candidate = weightedDraw(random.nextLong());
    long activeRequests = active[candidate].get();
    if (activeRequests == 0 || bias == 0) {
      return candidate; // factor 1: accepted (the common case, kept small enough to inline)
    }
    return weightedByActive(candidate, activeRequests);
  }

  /** Rejection sampling, from a first draw of {@code candidate} with {@code activeRequests}. */
  private int weightedByActive(int firstCandidate, long firstActive) {
    int best = -1;
    double bestEffective = -1;
    int candidate = firstCandidate;
    long activeRequests = firstActive;
    for (int draw = 0; draw < MAX_DRAWS; draw++) {
      if (draw > 0) {
        candidate = weightedDraw(random.nextLong());
        activeRequests = active[candidate].get();
      }
      double factor = inverseLoad(activeRequests);
      if (factor >= 1 || (random.nextLong() >>> 11) * 0x1p-53 < factor) {
        return candidate;
      }
      double effective = weights[candidate] * factor;
      if (effective > bestEffective) {
        best = candidate;
        bestEffective = effective;
      }
    }
    return best;
  }

  /**
   * An index drawn in proportion to weight: the alias table's slot and coin from 64 random bits.
   * Branch-free: the coin is random, so a branch on it would be mispredicted half the time.
   */
  private int weightedDraw(long bits) {
    int slot = index(bits >>> 32, aliasTable.length);
    long entry = aliasTable[slot];
    int takeAlias = (int) ~(((bits & 0xFFFF_FFFFL) - (entry >>> 32)) >> 63); // all ones if coin >= keep
    return slot ^ ((slot ^ (int) entry) & takeAlias);
  }

  /** {@code (active + 1)^-bias}; the common biases avoid {@code Math.pow}. */
  private double inverseLoad(long activeRequests) {
    if (activeRequests <= 0 || bias == 0) {
      return 1;
    }
    double load = activeRequests + 1.0;
    if (bias == 1) {
      return 1 / load;
    }
    return bias == 0.5 ? 1 / Math.sqrt(load) : Math.pow(load, -bias);
  }

  /** Vose's alias method: O(n) to build, then a weighted draw is one uniform slot and one coin. */
  static void buildAliasTable(long[] weights, double[] keep, int[] alias) {
    int n = weights.length;
    double total = 0;
    for (long w : weights) {
      total += w;
    }
    double[] scaled = new double[n];
    int[] small = new int[n];
    int[] large = new int[n];
    int smallCount = 0;
    int largeCount = 0;
    for (int i = 0; i < n; i++) {
      scaled[i] = weights[i] * n / total;
      if (scaled[i] < 1) {
        small[smallCount++] = i;
      } else {
        large[largeCount++] = i;
      }
    }
    while (smallCount > 0 && largeCount > 0) {
      int s = small[--smallCount];
      int l = large[--largeCount];
      keep[s] = scaled[s];
      alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1;
      if (scaled[l] < 1) {
        small[smallCount++] = l;
      } else {
        large[largeCount++] = l;
      }
    }
    while (largeCount > 0) {
      int l = large[--largeCount];
      keep[l] = 1;
      alias[l] = l;
    }
    while (smallCount > 0) { // rounding leftovers
      int s = small[--smallCount];
      keep[s] = 1;
      alias[s] = s;
    }
  }

  /** Whether this picker already serves these subchannels with these weights and settings. */
  boolean serves(List<Subchannel> otherSubchannels, long[] otherWeights, LbPolicy.LeastRequest otherPolicy) {
    return policy.equals(otherPolicy) && PickerInputs.same(subchannels, weights, otherSubchannels, otherWeights);
  }

  @Override
  public String toString() {
    return "LeastRequestPicker{endpoints=" + results.length + ", choiceCount=" + policy.choiceCount()
        + ", equalWeights=" + equalWeights + "}";
  }
}
