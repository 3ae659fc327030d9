package io.jxds.balancer.internal.resolver;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Runs one call with the faults its route's fault filters drew for it (gRFC A33), after the call's
 * cluster interceptor: {@code outer} sees the call first (so the cluster reference is given back
 * when a faulted call closes), then each fault, in the listener's filter order, then the channel.
 */
final class FaultInterceptor implements ClientInterceptor {
  private final ClientInterceptor outer;
  private final FaultPolicy.Fault[] faults;
  private final ScheduledExecutorService scheduler;
  private final ActiveFaults active;

  FaultInterceptor(ClientInterceptor outer, FaultPolicy.Fault[] faults, ScheduledExecutorService scheduler,
      ActiveFaults active) {
    this.outer = outer;
    this.faults = faults;
    this.scheduler = scheduler;
    this.active = active;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    return outer.interceptCall(method, options, new Faulted(next, 0));
  }

  /** The channel below fault {@code index}: the next fault's call, or the real channel after the last. */
  private final class Faulted extends Channel {
    private final Channel next;
    private final int index;

    Faulted(Channel next, int index) {
      this.next = next;
      this.index = index;
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      Channel below = index + 1 < faults.length ? new Faulted(next, index + 1) : next;
      return new FaultCall<>(method, options, below, faults[index], scheduler, active);
    }

    @Override
    public String authority() {
      return next.authority();
    }
  }

  @Override
  public String toString() {
    return "FaultInterceptor{" + faults.length + " faults, " + outer + "}";
  }
}
