package io.jxds.balancer.internal.eds;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.jxds.balancer.internal.metrics.ClusterMetrics;
import io.jxds.testing.BackendCalls;
import io.jxds.testing.Poll;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestBackends;
import io.jxds.testing.TestRandom;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The circuit breaker's count on a real channel (Netty, 127.0.0.1) whose balancer is only the
 * EDS layer's picker over one subchannel, for the cases where gRPC creates a pick's stream tracer
 * and then neither starts nor closes its stream.
 */
class CircuitBreakerChannelTest {
  private static final String POLICY = "jxds_test_circuit_breaker";
  /** A call to cancel from inside its own pick: the channel is re-picking it, and then creates its stream. */
  private static final CallOptions.Key<AtomicReference<ClientCall<?, ?>>> CANCEL_WHILE_PICKED =
      CallOptions.Key.create("cancelWhilePicked");

  static {
    LoadBalancerRegistry.getDefaultRegistry().register(new ProbeProvider());
  }

  private static volatile ProbeBalancer last;
  // Tests of this class run one at a time: the balancer the channel made last is the test's.

  private final TestBackends backends = new TestBackends();
  private final InFlightRequests inFlight = InFlightRequests.of("probe-" + UUID.randomUUID(), "eds");
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    backends.close();
  }

  @Test
  void callCancelledWhileThePickerReleasesItIsNotCountedOnceSettled() throws Exception {
    TestBackend a = backends.start("a");
    last = null;
    PROBE_COUNTER.set(inFlight);
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", a.port(), InsecureChannelCredentials.create())
        .defaultLoadBalancingPolicy(POLICY)
        .build();
    // Started while the subchannel connects, so it waits in the channel; when the picker becomes
    // READY the channel picks it again, it is cancelled during that pick, and the channel then
    // creates its stream (and the stream's tracers) but never starts it.
    AtomicReference<ClientCall<?, ?>> toCancel = new AtomicReference<>();
    ClientCall<byte[], byte[]> call = channel.newCall(TestBackend.HOLD_METHOD, CallOptions.DEFAULT.withOption(
        CANCEL_WHILE_PICKED, toCancel));
    List<Status> closed = new CopyOnWriteArrayList<>();
    toCancel.set(call);
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.add(status);
      }
    }, new Metadata());
    call.sendMessage(new byte[0]);
    call.halfClose();
    // Only now may the picker turn READY: a call cancelled before sendMessage would make it throw.
    Poll.until("the probe balancer", () -> last != null);
    last.serveWhenReady();

    Poll.until("the call is cancelled", () -> !closed.isEmpty());
    assertThat(closed.get(0).getCode()).isEqualTo(Status.Code.CANCELLED);
    assertThat(toCancel.get()).as("cancelled from inside its pick").isNull();
    // A later RPC goes through: its stream opens and closes, so every tracer event has happened.
    assertThat(BackendCalls.call(channel)).isEqualTo("a");
    assertThat(a.heldStreams()).as("the cancelled call never reached the backend").isZero();

    // The cancelled call's count is held for a stream that never shows up: the EDS layer sweeps
    // its pickers every few seconds, and the second sweep gives such a count back.
    assertThat(inFlight.open()).as("held for the cancelled call").isEqualTo(1);
    last.sweep();
    last.sweep();
    assertThat(inFlight.open()).as("open requests once everything settled").isZero();
  }

  private static final AtomicReference<InFlightRequests> PROBE_COUNTER = new AtomicReference<>();

  /** One subchannel to the resolved address; the EDS layer's picker over it once READY. */
  private static final class ProbeBalancer extends LoadBalancer {
    private final Helper helper;
    private Subchannel subchannel;
    private boolean serving;
    ClusterRequestPicker picker;

    ProbeBalancer(Helper helper) {
      this.helper = helper;
    }

    @Override
    public Status acceptResolvedAddresses(ResolvedAddresses addresses) {
      if (subchannel == null) {
        subchannel = helper.createSubchannel(CreateSubchannelArgs.newBuilder()
            .setAddresses(addresses.getAddresses())
            .build());
        subchannel.start(this::onState);
        subchannel.requestConnection();
        helper.updateBalancingState(ConnectivityState.CONNECTING, new SubchannelPicker() {
          @Override
          public PickResult pickSubchannel(PickSubchannelArgs args) {
            return PickResult.withNoResult();
          }
        });
      }
      return Status.OK;
    }

    private void onState(ConnectivityStateInfo info) {
      if (info.getState() == ConnectivityState.IDLE) {
        subchannel.requestConnection();
      }
      if (info.getState() != ConnectivityState.READY) {
        return;
      }
      PickResult ready = PickResult.withSubchannel(subchannel);
      SubchannelPicker child = new SubchannelPicker() {
        @Override
        public PickResult pickSubchannel(PickSubchannelArgs args) {
          AtomicReference<ClientCall<?, ?>> cancel = args.getCallOptions().getOption(CANCEL_WHILE_PICKED);
          ClientCall<?, ?> call = cancel == null ? null : cancel.getAndSet(null);
          if (call != null) {
            call.cancel("cancelled while being picked", null);
          }
          return ready;
        }
      };
      picker = new ClusterRequestPicker("probe", child, List.of(), PROBE_COUNTER.get(), 10,
          TestRandom.seeded(1), null, ClusterMetrics.NONE);
      publishReady();
    }

    /** Lets the READY picker out (now, or when the subchannel is READY); until then calls wait. */
    void serveWhenReady() {
      helper.getSynchronizationContext().execute(() -> {
        serving = true;
        publishReady();
      });
    }

    private void publishReady() {
      if (serving && picker != null) {
        helper.updateBalancingState(ConnectivityState.READY, picker);
      }
    }

    /** One sweep of the picker's held counts, on the SynchronizationContext. */
    void sweep() {
      helper.getSynchronizationContext().execute(picker::sweep);
    }

    @Override
    public void handleNameResolutionError(Status error) {}

    @Override
    public void shutdown() {
      if (subchannel != null) {
        subchannel.shutdown();
      }
    }
  }

  private static final class ProbeProvider extends LoadBalancerProvider {
    @Override
    public boolean isAvailable() {
      return true;
    }

    @Override
    public int getPriority() {
      return 5;
    }

    @Override
    public String getPolicyName() {
      return POLICY;
    }

    @Override
    public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
      ProbeBalancer balancer = new ProbeBalancer(helper);
      last = balancer;
      return balancer;
    }
  }
}
