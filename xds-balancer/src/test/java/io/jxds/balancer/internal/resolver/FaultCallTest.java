package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.jxds.api.model.filter.FaultConfig;
import io.jxds.api.model.filter.FaultFraction;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestBackend;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** A faulted call (gRFC A33) on a fake clock: nothing reaches the channel until its fault is over. */
class FaultCallTest {
  private final FakeClock clock = new FakeClock();
  private final ActiveFaults active = new ActiveFaults();
  private final List<String> below = new ArrayList<>();
  private final RecordingListener listener = new RecordingListener();
  private final Channel channel = new Channel() {
    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      below.add("newCall");
      return new ClientCall<>() {
        @Override
        public void start(Listener<R> l, Metadata headers) {
          below.add("start");
        }

        @Override
        public void request(int n) {
          below.add("request " + n);
        }

        @Override
        public void cancel(@Nullable String message, @Nullable Throwable cause) {
          below.add("cancel");
        }

        @Override
        public void halfClose() {
          below.add("halfClose");
        }

        @Override
        public void sendMessage(Q message) {
          below.add("sendMessage");
        }
      };
    }

    @Override
    public String authority() {
      return "a";
    }
  };

  @Test
  void aDelayedCallIsSentAfterItsDelayWithWhatTheApplicationDidMeanwhileInOrder() {
    ClientCall<byte[], byte[]> call = faulted(new FaultPolicy.Fault(TimeUnit.SECONDS.toNanos(2), null, 10));
    call.start(listener, new Metadata());
    call.request(1);
    call.sendMessage(new byte[0]);
    call.halfClose();
    assertThat(active.count()).isEqualTo(1);

    clock.forwardTime(1999, TimeUnit.MILLISECONDS);
    assertThat(below).isEmpty();
    clock.forwardTime(1, TimeUnit.MILLISECONDS);

    assertThat(below).containsExactly("newCall", "start", "request 1", "sendMessage", "halfClose");
    assertThat(active.count()).isZero();
    call.request(2);
    assertThat(below).endsWith("request 2");
  }

  @Test
  void aCancelDuringTheDelayClosesTheCallAndFreesItsPlace() {
    ClientCall<byte[], byte[]> call = faulted(new FaultPolicy.Fault(TimeUnit.SECONDS.toNanos(2), null, 10));
    call.start(listener, new Metadata());
    call.cancel("bye", null);

    assertThat(listener.status.getCode()).isEqualTo(Status.Code.CANCELLED);
    assertThat(active.count()).isZero();
    clock.forwardTime(5, TimeUnit.SECONDS);
    assertThat(below).isEmpty();
  }

  @Test
  void anAbortAfterADelayClosesWithItsStatusAndSendsNothing() {
    ClientCall<byte[], byte[]> call = faulted(new FaultPolicy.Fault(TimeUnit.MILLISECONDS.toNanos(10),
        Status.RESOURCE_EXHAUSTED, 10));
    call.start(listener, new Metadata());
    call.halfClose();
    clock.forwardTime(10, TimeUnit.MILLISECONDS);

    assertThat(listener.status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(below).isEmpty();
    assertThat(active.count()).isZero();
  }

  @Test
  void aDeadlineShorterThanTheDelayEndsTheCallAtTheDeadline() {
    ClientCall<byte[], byte[]> call = new FaultCall<>(TestBackend.NAME_METHOD,
        CallOptions.DEFAULT.withDeadline(Deadline.after(100, TimeUnit.MILLISECONDS, ticker())),
        channel, new FaultPolicy.Fault(TimeUnit.SECONDS.toNanos(5), null, 10), clock, active);
    call.start(listener, new Metadata());
    clock.forwardTime(100, TimeUnit.MILLISECONDS);

    assertThat(listener.status.getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(below).isEmpty();
  }

  @Test
  void pastMaxActiveFaultsACallRunsUnfaulted() {
    faulted(new FaultPolicy.Fault(TimeUnit.SECONDS.toNanos(1), null, 1)).start(listener, new Metadata());
    ClientCall<byte[], byte[]> second = faulted(new FaultPolicy.Fault(TimeUnit.SECONDS.toNanos(1), null, 1));
    second.start(new RecordingListener(), new Metadata());

    assertThat(below).containsExactly("newCall", "start");
    assertThat(active.count()).isEqualTo(1);
  }

  @Test
  void percentagesAreDrawnIndependentlyAndZeroFaultsNothing() {
    FaultConfig both = new FaultConfig(
        Optional.of(new FaultConfig.Delay(Optional.of(java.time.Duration.ofMillis(1)), new FaultFraction(20, 100))),
        Optional.of(new FaultConfig.Abort(Optional.of(Status.Code.UNAVAILABLE), new FaultFraction(5, 100))),
        OptionalLong.empty());
    FaultPolicy policy = FaultPolicy.of(both);
    var random = TestRandom.seeded(7);
    int delayed = 0;
    int aborted = 0;
    int any = 0;
    for (int i = 0; i < 20_000; i++) {
      FaultPolicy.Fault f = policy.decide(new Metadata(), random);
      if (f != null) {
        any++;
        delayed += f.delayNanos() > 0 ? 1 : 0;
        aborted += f.abort() != null ? 1 : 0;
      }
    }
    // 20 %, 5 % and 24 % of 20 000 (independent draws, gRFC A33); bounds > 5 standard deviations wide.
    assertThat(delayed).isBetween(3_700, 4_300);
    assertThat(aborted).isBetween(850, 1_150);
    assertThat(any).isBetween(4_500, 5_100);
    assertThat(FaultPolicy.of(new FaultConfig(Optional.empty(), Optional.of(new FaultConfig.Abort(
        Optional.of(Status.Code.UNAVAILABLE), new FaultFraction(0, 100))), OptionalLong.empty()))).isNull();
  }

  private Deadline.Ticker ticker() {
    return new Deadline.Ticker() {
      @Override
      public long nanoTime() {
        return clock.nanoTime();
      }
    };
  }

  private ClientCall<byte[], byte[]> faulted(FaultPolicy.Fault fault) {
    return new FaultCall<>(TestBackend.NAME_METHOD, CallOptions.DEFAULT, channel, fault, clock, active);
  }

  private static final class RecordingListener extends ClientCall.Listener<byte[]> {
    Status status;

    @Override
    public void onClose(Status s, Metadata trailers) {
      status = s;
    }
  }
}
