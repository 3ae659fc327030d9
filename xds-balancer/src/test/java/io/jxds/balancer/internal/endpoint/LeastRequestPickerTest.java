package io.jxds.balancer.internal.endpoint;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.ClientStreamTracer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.model.LbPolicy;
import io.jxds.balancer.internal.picker.OpenStreams;
import io.jxds.testing.FakeLbHelper;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Least request (gRFC A48) and envoy's weighted rule, over fake subchannels with outstanding RPCs
 * opened through the picks' own tracers. Picks draw from a seeded generator; share bounds are in
 * percentage points over 100 000 picks (a binomial standard deviation of at most 0.16 points).
 */
class LeastRequestPickerTest {
  private static final int PICKS = 100_000;

  private final FakeLbHelper helper = new FakeLbHelper();
  private final List<Subchannel> subchannels = new ArrayList<>();
  private final List<OpenStreams> active = new ArrayList<>();

  private LeastRequestPicker picker(long[] weights, LbPolicy.LeastRequest policy) {
    helper.run(() -> {
      for (int i = 0; i < weights.length; i++) {
        subchannels.add(helper.createSubchannel(io.grpc.LoadBalancer.CreateSubchannelArgs.newBuilder()
            .setAddresses(new io.grpc.EquivalentAddressGroup(endpoint(i + 1).address())).build()));
        active.add(new OpenStreams());
      }
    });
    return new LeastRequestPicker(subchannels, weights, active, policy, TestRandom.seeded(3));
  }

  /** Opens {@code n} streams on endpoint {@code i}, as picks that became RPCs would. */
  private void open(LeastRequestPicker picker, int i, int n) {
    for (int k = 0; k < n; k++) {
      ClientStreamTracer tracer = active.get(i).tracerFactory()
          .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
      tracer.streamCreated(io.grpc.Attributes.EMPTY, new Metadata());
    }
  }

  private double[] shares(LeastRequestPicker picker) {
    double[] counts = new double[subchannels.size()];
    for (int i = 0; i < PICKS; i++) {
      PickResult r = picker.pickSubchannel(FakeLbHelper.ARGS);
      counts[subchannels.indexOf(r.getSubchannel())]++;
    }
    for (int i = 0; i < counts.length; i++) {
      counts[i] = 100 * counts[i] / PICKS;
    }
    return counts;
  }

  @Test
  void pickCarriesTracerThatCountsTheStreamWhileOpen() {
    LeastRequestPicker picker = picker(new long[] {1}, LbPolicy.LeastRequest.defaults());
    PickResult r = picker.pickSubchannel(FakeLbHelper.ARGS);
    ClientStreamTracer tracer = r.getStreamTracerFactory()
        .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
    tracer.streamCreated(io.grpc.Attributes.EMPTY, new Metadata());
    assertThat(active.get(0).get()).isEqualTo(1);
    tracer.streamClosed(Status.OK);
    tracer.streamClosed(Status.OK); // a second close counts nothing
    assertThat(active.get(0).get()).isZero();
  }

  @Test
  void equalWeightsTwoChoicesSendThreeQuartersToTheIdleEndpoint() {
    LeastRequestPicker picker = picker(new long[] {1, 1}, LbPolicy.LeastRequest.defaults());
    open(picker, 1, 5);
    // Two uniform draws: endpoint 0 is drawn at least once with probability 3/4 and then wins.
    assertThat(shares(picker)[0]).isCloseTo(75, within(1.0));
  }

  @Test
  void moreChoicesAvoidTheBusyEndpointMore() {
    LeastRequestPicker picker = picker(new long[] {1, 1, 1, 1}, new LbPolicy.LeastRequest(4, 1));
    open(picker, 0, 3);
    open(picker, 1, 3);
    open(picker, 2, 3);
    // Endpoint 3 is idle; four draws miss it with probability (3/4)^4 = 31.6 %: it gets 68.4 %.
    assertThat(shares(picker)[3]).isCloseTo(68.4, within(1.0));
  }

  @Test
  void unequalWeightsFollowEnvoysEffectiveWeightFormula() {
    long[] weights = {1, 2, 4, 8};
    LeastRequestPicker picker = picker(weights, new LbPolicy.LeastRequest(2, 1.0));
    int[] outstanding = {0, 1, 1, 7};
    for (int i = 0; i < outstanding.length; i++) {
      open(picker, i, outstanding[i]);
    }
    // e = w / (active + 1)^1 = 1, 1, 2, 1: shares 20 %, 20 %, 40 %, 20 %.
    double[] expected = expectedShares(weights, outstanding, 1.0);
    assertThat(expected).containsExactly(new double[] {20, 20, 40, 20}, within(1e-9));
    assertThat(shares(picker)).containsExactly(expected, within(1.0));
  }

  @Test
  void biasZeroIsPlainWeightedAndOtherBiasesFollowTheFormula() {
    long[] weights = {1, 3};
    int[] outstanding = {0, 3};
    LeastRequestPicker unbiased = picker(weights, new LbPolicy.LeastRequest(2, 0));
    open(unbiased, 1, 3);
    assertThat(shares(unbiased)).containsExactly(new double[] {25, 75}, within(1.0));

    LeastRequestPicker half = new LeastRequestPicker(subchannels, weights, active, new LbPolicy.LeastRequest(2, 0.5),
        TestRandom.seeded(4));
    // e = 1 / 1 and 3 / sqrt(4) = 1.5: 40 % and 60 %.
    assertThat(shares(half)).containsExactly(expectedShares(weights, outstanding, 0.5), within(1.0));
    LeastRequestPicker strong = new LeastRequestPicker(subchannels, weights, active, new LbPolicy.LeastRequest(2, 2),
        TestRandom.seeded(5));
    // e = 1 and 3 / 16: 84.2 % and 15.8 %.
    assertThat(shares(strong)).containsExactly(expectedShares(weights, outstanding, 2), within(1.0));
  }

  private static double[] expectedShares(long[] weights, int[] outstanding, double bias) {
    double[] e = new double[weights.length];
    double total = 0;
    for (int i = 0; i < e.length; i++) {
      e[i] = weights[i] / Math.pow(outstanding[i] + 1, bias);
      total += e[i];
    }
    for (int i = 0; i < e.length; i++) {
      e[i] = 100 * e[i] / total;
    }
    return e;
  }

  @Test
  void idleEndpointsWithUnequalWeightsAreWalkedInExactProportionWithoutARandomDraw() {
    long[] weights = {5, 1, 3, 1};
    RandomGenerator noDraws = new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new AssertionError("an idle endpoint needs no random draw");
      }

      @Override
      public int nextInt(int bound) {
        return 0; // the cursor's start positions, drawn once
      }
    };
    picker(weights, LbPolicy.LeastRequest.defaults()); // the subchannels and their counters
    LeastRequestPicker picker = new LeastRequestPicker(subchannels, weights, active,
        LbPolicy.LeastRequest.defaults(), noDraws);
    int[] counts = new int[weights.length];
    for (int i = 0; i < 1_000; i++) {
      counts[subchannels.indexOf(picker.pickSubchannel(FakeLbHelper.ARGS).getSubchannel())]++;
    }
    // 100 full turns of the smooth order (10 slots): exactly 5:1:3:1.
    assertThat(counts).containsExactly(500, 100, 300, 100);
  }
}
