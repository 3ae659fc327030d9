package io.jxds.balancer.internal.endpoint;

import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.internal.picker.OpenStreams;
import io.jxds.balancer.internal.picker.SmoothWrrSequence;
import io.jxds.balancer.internal.picker.StripedCursor;
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
 *       not have): an endpoint's effective weight is {@code weight / (active + 1)^bias}, and
 *       endpoint i gets {@code e_i / Σe} of the picks. Like envoy, which walks a weighted round
 *       robin schedule of the effective weights, the picker walks the endpoints' smooth weighted
 *       order ({@link SmoothWrrSequence}, as the round robin picker does, one per-thread cursor
 *       step a pick) and accepts the endpoint it lands on with probability {@code (active_i +
 *       1)^-bias}, else steps on: each endpoint is met in proportion to its weight, so accepted
 *       picks come out in proportion to {@code e_i}. An idle endpoint is accepted without a
 *       random draw. Worked number: weights 1, 2, 4 with 0, 1, 3 RPCs and bias 1 give effective
 *       weights 1, 1, 1: a third each. After {@value #MAX_DRAWS} rejections (all endpoints busy)
 *       the endpoint met with the largest effective weight is taken, so a pick stays O(1).
 * </ul>
 *
 * <p>Outstanding RPCs are counted per endpoint by {@link OpenStreams}, whose tracer the picker
 * attaches to each pick (the counts belong to the endpoints and outlive pickers). Random indexes
 * come from one 64-bit draw per two choices, mapped to [0, n) by a multiply and a shift rather
 * than a division (bias below n / 2^32). Immutable apart from those counters and the cursor; safe
 * on any thread; a pick allocates nothing.
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
  /** Unequal weights: the endpoints' smooth weighted order, and each thread's place in it. */
  private final int[] order;
  private final StripedCursor cursor;

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
    this.order = equal ? null : SmoothWrrSequence.build(this.weights);
    this.cursor = equal ? null : new StripedCursor(order.length, random);
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
    int candidate = order[cursor.next()];
    long activeRequests = active[candidate].get();
    if (activeRequests == 0 || bias == 0) {
      return candidate; // factor 1: accepted (the common case, kept small enough to inline)
    }
    return weightedByActive(candidate, activeRequests);
  }

  /** Rejection along the order, from a first endpoint {@code candidate} with {@code activeRequests}. */
  private int weightedByActive(int firstCandidate, long firstActive) {
    int best = -1;
    double bestEffective = -1;
    int candidate = firstCandidate;
    long activeRequests = firstActive;
    for (int draw = 0; draw < MAX_DRAWS; draw++) {
      if (draw > 0) {
        candidate = order[cursor.next()];
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
