package io.jxds.balancer.internal.eds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.grpc.Attributes;
import io.grpc.ClientStreamTracer;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.api.model.DropOverload;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.metrics.ClusterMetrics;
import io.jxds.balancer.internal.tree.EndpointLocality;
import io.jxds.client.internal.lrs.ClusterLoadStats;
import io.jxds.client.internal.lrs.LoadStatsStore;
import io.jxds.client.internal.lrs.LocalityLoadStats;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClusterRequestPickerTest {
  /** For tests of drops, which pick without streams: each admitted pick holds a count until swept. */
  private static final long NO_LIMIT = Long.MAX_VALUE;
  private final Subchannel subchannel = mock(Subchannel.class);
  private final SubchannelPicker child = new SubchannelPicker() {
    @Override
    public PickResult pickSubchannel(PickSubchannelArgs args) {
      return PickResult.withSubchannel(subchannel);
    }
  };
  private final PickSubchannelArgs args = mock(PickSubchannelArgs.class);
  private final ClusterLoadStats load = new LoadStatsStore(() -> {}).cluster("c", "c-eds");

  @Test
  void dropShareMatchesPartsPerMillionWithinOnePoint() {
    ClusterRequestPicker picker = new ClusterRequestPicker("c", child,
        List.of(new DropOverload("throttle", 250_000)), freshCounter(), NO_LIMIT, TestRandom.seeded(42),
        load, ClusterMetrics.NONE);

    int dropped = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      PickResult r = picker.pickSubchannel(args);
      if (r.isDrop()) {
        dropped++;
        assertThat(r.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(r.getStatus().getDescription()).isEqualTo("dropped by load balancer: category throttle");
      }
    }
    assertThat(100.0 * dropped / n).isBetween(24.0, 26.0);
    assertThat(load.totalDrops()).isEqualTo(dropped); // every drop counted for load reports
  }

  @Test
  void categoriesDrawIndependentlyInOrder() {
    // 50 % then 50 %: the first takes half, the second half of the rest, 75 % in all.
    ClusterRequestPicker picker = new ClusterRequestPicker("c", child,
        List.of(new DropOverload("a", 500_000), new DropOverload("b", 500_000)),
        freshCounter(), NO_LIMIT, TestRandom.seeded(7), load, ClusterMetrics.NONE);

    int n = 100_000;
    int a = 0;
    int b = 0;
    for (int i = 0; i < n; i++) {
      PickResult r = picker.pickSubchannel(args);
      if (r.isDrop()) {
        String category = r.getStatus().getDescription();
        a += category.endsWith("category a") ? 1 : 0;
        b += category.endsWith("category b") ? 1 : 0;
      }
    }
    assertThat(100.0 * a / n).isBetween(49.0, 51.0);
    assertThat(100.0 * b / n).isBetween(24.0, 26.0);
    assertThat(load.totalDrops()).isEqualTo(a + b);
  }

  @Test
  void fullDropDropsEverythingAndZeroDropsNothing() {
    ClusterRequestPicker all = new ClusterRequestPicker("c", child,
        List.of(new DropOverload("all", DropOverload.MILLION)), freshCounter(), 1024, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);
    ClusterRequestPicker none = new ClusterRequestPicker("c", child,
        List.of(new DropOverload("none", 0)), freshCounter(), NO_LIMIT, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);

    for (int i = 0; i < 1000; i++) {
      assertThat(all.pickSubchannel(args).isDrop()).isTrue();
      assertThat(none.pickSubchannel(args).getSubchannel()).isSameAs(subchannel);
    }
  }

  @Test
  void circuitBreakerCountsOpenStreamsAndRefusesAtTheLimit() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("payments", child, List.of(), inFlight, 2, TestRandom.seeded(1),
        load, ClusterMetrics.NONE);

    ClientStreamTracer first = openStream(picker.pickSubchannel(args));
    ClientStreamTracer second = openStream(picker.pickSubchannel(args));
    PickResult third = picker.pickSubchannel(args);

    assertThat(inFlight.open()).isEqualTo(2);
    assertThat(third.isDrop()).isTrue();
    assertThat(third.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(third.getStatus().getDescription()).isEqualTo("cluster payments: max concurrent requests 2 exceeded");
    assertThat(load.totalDrops()).isEqualTo(1); // a refusal is a drop without a category

    first.streamClosed(Status.CANCELLED); // whatever the outcome, a closed stream frees its slot
    assertThat(inFlight.open()).isEqualTo(1);
    assertThat(picker.pickSubchannel(args).getSubchannel()).isSameAs(subchannel);
    second.streamClosed(Status.OK);
  }

  @Test
  void burstOfPicksBeforeAnyStreamStartsAdmitsAtMostMaxRequests() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("payments", child, List.of(), inFlight, 5, TestRandom.seeded(1),
        load, ClusterMetrics.NONE);

    // 100 RPCs picked before any of their streams is created (a channel re-picking its queued
    // RPCs at once, or 100 threads between their pick and their stream).
    List<PickResult> admitted = new ArrayList<>();
    int refused = 0;
    for (int i = 0; i < 100; i++) {
      PickResult r = picker.pickSubchannel(args);
      if (r.getSubchannel() != null) {
        admitted.add(r);
      } else {
        assertThat(r.getStatus().getDescription()).isEqualTo("cluster payments: max concurrent requests 5 exceeded");
        refused++;
      }
    }

    assertThat(admitted).as("admitted of 100").hasSize(5);
    assertThat(refused).isEqualTo(95);
    for (PickResult r : admitted) {
      openStream(r).streamClosed(Status.OK);
    }
    assertThat(inFlight.open()).as("every slot back once the streams closed").isZero();
  }

  @Test
  void streamClosedBeforeItsHeadersGivesBackItsPicksCountOnce() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 10, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);
    ClientStreamTracer open = openStream(picker.pickSubchannel(args));

    // gRPC closes a tracer whose stream never started (e.g. failing call credentials).
    ClientStreamTracer neverCreated = picker.pickSubchannel(args).getStreamTracerFactory()
        .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
    assertThat(inFlight.open()).isEqualTo(2);
    neverCreated.streamClosed(Status.UNAUTHENTICATED);
    neverCreated.streamClosed(Status.UNAUTHENTICATED);

    assertThat(inFlight.open()).isEqualTo(1);
    open.streamClosed(Status.OK);
    open.streamClosed(Status.OK); // a second close changes nothing either
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void admittedPicksOfOneSubchannelShareOneResult() {
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), freshCounter(), 10, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);

    PickResult first = picker.pickSubchannel(args);

    // No allocation per pick: the same admitted result, tracer included, every time.
    assertThat(picker.pickSubchannel(args)).isSameAs(first);
    assertThat(first.getSubchannel()).isSameAs(subchannel);
    assertThat(first.getStreamTracerFactory()).isNotNull();
  }

  @Test
  void pickThatNeverBecomesAStreamIsCountedUntilASweepAfterTheNextGivesItBack() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 1, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);

    assertThat(picker.pickSubchannel(args).getSubchannel()).isSameAs(subchannel); // no stream follows
    assertThat(picker.pickSubchannel(args).isDrop()).as("the pick holds the only slot").isTrue();
    picker.sweep(); // held since the previous sweep: it may still be on its way to its stream
    assertThat(inFlight.open()).isEqualTo(1);
    picker.sweep(); // held before the previous sweep and never taken: given back
    assertThat(inFlight.open()).isZero();
    assertThat(picker.pickSubchannel(args).getSubchannel()).isSameAs(subchannel);
    List<AdmittedRequests> holding = picker.replace(); // kept for later sweeps, not the picker
    assertThat(holding).hasSize(1);
    assertThat(inFlight.open()).isEqualTo(1);
    holding.forEach(AdmittedRequests::retire);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void streamWhoseTracerIsCreatedButNeverStartedIsGivenBackBySweeps() {
    // A call cancelled while the channel re-picks it: gRPC creates its stream and tracer (stream
    // created included) but neither starts nor closes the stream.
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 10, TestRandom.seeded(1),
        load, ClusterMetrics.NONE);
    ClientStreamTracer orphan = picker.pickSubchannel(args).getStreamTracerFactory()
        .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
    orphan.streamCreated(Attributes.EMPTY, new Metadata());
    ClientStreamTracer live = openStream(picker.pickSubchannel(args));

    picker.sweep();
    picker.sweep();

    assertThat(inFlight.open()).as("only the live stream").isEqualTo(1);
    live.streamClosed(Status.OK);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void streamWhoseCountWasGivenBackCountsItselfWhenItsHeadersGoOut() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 1, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);
    ClientStreamTracer slow = picker.pickSubchannel(args).getStreamTracerFactory()
        .newClientStreamTracer(ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
    picker.sweep();
    picker.sweep(); // waited two sweeps for a connection slot: its count was given back
    assertThat(inFlight.open()).isZero();

    slow.outboundHeaders();
    assertThat(inFlight.open()).isEqualTo(1);
    assertThat(picker.pickSubchannel(args).isDrop()).isTrue();
    slow.streamClosed(Status.OK);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void replacedPickerHandsOverTheCountsItsPicksHoldAndTheirStreamsStillTakeThem() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 10, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);
    PickResult before = picker.pickSubchannel(args);
    ClientStreamTracer open = openStream(picker.pickSubchannel(args));

    List<AdmittedRequests> holding = picker.replace();
    assertThat(holding).hasSize(1);
    assertThat(inFlight.open()).isEqualTo(2);
    ClientStreamTracer late = openStream(before); // picked before the replacement
    ClientStreamTracer straggler = openStream(picker.pickSubchannel(args)); // a thread still on the old picker
    assertThat(inFlight.open()).isEqualTo(3);
    holding.forEach(AdmittedRequests::retire); // every hold was taken: nothing to give back
    assertThat(inFlight.open()).isEqualTo(3);

    open.streamClosed(Status.OK);
    late.streamClosed(Status.OK);
    straggler.streamClosed(Status.CANCELLED);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void replacedPickerWhosePicksHoldNothingKeepsNothingAndLaterStreamsCountThemselves() {
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", child, List.of(), inFlight, 10, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);
    ClientStreamTracer open = openStream(picker.pickSubchannel(args));

    assertThat(picker.replace()).isEmpty();
    PickResult straggler = picker.pickSubchannel(args);
    assertThat(straggler.getSubchannel()).isSameAs(subchannel);
    assertThat(inFlight.open()).as("nothing held for a retired subchannel's pick").isEqualTo(1);
    ClientStreamTracer late = openStream(straggler);
    assertThat(inFlight.open()).isEqualTo(2);

    open.streamClosed(Status.OK);
    late.streamClosed(Status.OK);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void queuedOrFailedChildPicksPassThroughUnchanged() {
    PickResult error = PickResult.withError(Status.UNAVAILABLE.withDescription("no backends"));
    SubchannelPicker failing = new SubchannelPicker() {
      @Override
      public PickResult pickSubchannel(PickSubchannelArgs a) {
        return error;
      }
    };
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", failing, List.of(), freshCounter(), 0, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);

    assertThat(picker.pickSubchannel(args)).isSameAs(error);
  }

  @Test
  void countersAreSharedPerClusterAndServiceName() {
    assertThat(InFlightRequests.of("x", "x-eds")).isSameAs(InFlightRequests.of("x", "x-eds"));
    assertThat(InFlightRequests.of("x", "x-eds")).isNotSameAs(InFlightRequests.of("x", "other"));
  }

  @Test
  void childTracerStillSeesItsStream() {
    int[] childEvents = new int[2];
    ClientStreamTracer.Factory childFactory = new ClientStreamTracer.Factory() {
      @Override
      public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
        return new ClientStreamTracer() {
          @Override
          public void streamCreated(Attributes transportAttrs, Metadata h) {
            childEvents[0]++;
          }

          @Override
          public void streamClosed(Status status) {
            childEvents[1]++;
          }
        };
      }
    };
    SubchannelPicker traced = new SubchannelPicker() {
      @Override
      public PickResult pickSubchannel(PickSubchannelArgs a) {
        return PickResult.withSubchannel(subchannel, childFactory);
      }
    };
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker picker =
        new ClusterRequestPicker("c", traced, List.of(), inFlight, 10, TestRandom.seeded(1),
        null, ClusterMetrics.NONE);

    ClientStreamTracer tracer = openStream(picker.pickSubchannel(args));
    assertThat(inFlight.open()).isEqualTo(1);
    tracer.streamClosed(Status.OK);

    assertThat(childEvents).containsExactly(1, 1);
    assertThat(inFlight.open()).isZero();
  }

  @Test
  void loadReportCountersOutliveThePickerAndCountDropsRefusalsAndStreamsByLocality() {
    LocalityId zone = new LocalityId("r", "a", "");
    Subchannel inZone = mock(Subchannel.class);
    org.mockito.Mockito.when(inZone.getAttributes())
        .thenReturn(Attributes.newBuilder().set(EndpointLocality.KEY, new EndpointLocality(zone)).build());
    SubchannelPicker zonePicker = new SubchannelPicker() {
      @Override
      public PickResult pickSubchannel(PickSubchannelArgs a) {
        return PickResult.withSubchannel(inZone);
      }
    };
    ClusterLoadStats load = new LoadStatsStore(() -> {}).cluster("payments", "payments-eds");
    InFlightRequests inFlight = freshCounter();
    ClusterRequestPicker before = new ClusterRequestPicker("payments", zonePicker,
        List.of(new DropOverload("all", DropOverload.MILLION)), inFlight, 1, TestRandom.seeded(1), load,
        ClusterMetrics.NONE);
    assertThat(before.pickSubchannel(args).isDrop()).isTrue();
    ClusterRequestPicker after = new ClusterRequestPicker("payments", zonePicker, List.of(), inFlight, 1,
        TestRandom.seeded(1), load, ClusterMetrics.NONE); // a new picker: same counters

    ClientStreamTracer ok = openStream(after.pickSubchannel(args));
    PickResult refused = after.pickSubchannel(args);
    ok.streamClosed(Status.OK);
    ClientStreamTracer failed = openStream(after.pickSubchannel(args));
    failed.streamClosed(Status.UNAVAILABLE);

    LocalityLoadStats zoneStats = load.locality(zone);
    assertThat(refused.isDrop()).isTrue();
    assertThat(load.totalDrops()).as("one drop of category all, one refusal").isEqualTo(2);
    assertThat(zoneStats.issued()).isEqualTo(2);
    assertThat(zoneStats.succeeded()).isEqualTo(1);
    assertThat(zoneStats.errored()).isEqualTo(1);
    assertThat(zoneStats.inProgress()).isZero();
    assertThat(inFlight.open()).isZero();
  }

  private static InFlightRequests freshCounter() {
    return InFlightRequests.of("test-" + UUID.randomUUID(), "eds");
  }

  private static ClientStreamTracer openStream(PickResult result) {
    ClientStreamTracer tracer = result.getStreamTracerFactory().newClientStreamTracer(
        ClientStreamTracer.StreamInfo.newBuilder().build(), new Metadata());
    tracer.streamCreated(Attributes.EMPTY, new Metadata());
    tracer.outboundHeaders();
    return tracer;
  }
}
