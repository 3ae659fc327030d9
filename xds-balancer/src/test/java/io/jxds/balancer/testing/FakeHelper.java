package io.jxds.balancer.testing;

import io.grpc.Attributes;
import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancer.CreateSubchannelArgs;
import io.grpc.LoadBalancer.PickResult;
import io.grpc.LoadBalancer.PickSubchannelArgs;
import io.grpc.LoadBalancer.Subchannel;
import io.grpc.LoadBalancer.SubchannelPicker;
import io.grpc.LoadBalancer.SubchannelStateListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.CallOptions;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.testing.FakeClock;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A {@link LoadBalancer.Helper} for unit tests: records the subchannels a balancer creates and the
 * states it pushes, lets the test drive each subchannel's state, and runs timers on a {@link
 * FakeClock} through a real {@link SynchronizationContext}. Any exception thrown inside the
 * context fails the test at the next {@link #run} or {@link #forward}.
 */
public final class FakeHelper extends LoadBalancer.Helper {
  public final FakeClock clock = new FakeClock();
  private final List<Throwable> uncaught = new ArrayList<>();
  private final SynchronizationContext syncContext =
      new SynchronizationContext((thread, error) -> uncaught.add(error));
  /** Every subchannel ever created, in creation order. */
  public final List<FakeSubchannel> subchannels = new ArrayList<>();
  /** Every (state, picker) pushed, in order. */
  public final List<Update> updates = new ArrayList<>();

  /** One {@code updateBalancingState} call. */
  public record Update(ConnectivityState state, SubchannelPicker picker) {}

  /** Runs {@code task} in the synchronization context, then rethrows anything it threw. */
  public void run(Runnable task) {
    syncContext.execute(task);
    rethrow();
  }

  /** Moves the fake clock forward (timers run in the context). */
  public void forward(long amount, java.util.concurrent.TimeUnit unit) {
    clock.forwardTime(amount, unit);
    rethrow();
  }

  private void rethrow() {
    if (!uncaught.isEmpty()) {
      Throwable t = uncaught.remove(0);
      throw new AssertionError("exception in the SynchronizationContext", t);
    }
  }

  public ConnectivityState state() {
    return updates.isEmpty() ? null : updates.get(updates.size() - 1).state();
  }

  public SubchannelPicker picker() {
    return updates.isEmpty() ? null : updates.get(updates.size() - 1).picker();
  }

  /** The last created, not shut down subchannel for {@code address}, or null. */
  public FakeSubchannel subchannel(InetSocketAddress address) {
    for (int i = subchannels.size() - 1; i >= 0; i--) {
      FakeSubchannel s = subchannels.get(i);
      if (s.address().equals(address) && !s.isShutdown()) {
        return s;
      }
    }
    return null;
  }

  /** Live subchannels (not shut down), in creation order. */
  public List<FakeSubchannel> liveSubchannels() {
    List<FakeSubchannel> live = new ArrayList<>();
    for (FakeSubchannel s : subchannels) {
      if (!s.isShutdown()) {
        live.add(s);
      }
    }
    return live;
  }

  /** Picks once with the current picker. */
  public PickResult pick() {
    return picker().pickSubchannel(ARGS);
  }

  /** Picks {@code n} times and counts picks per address. */
  public Map<SocketAddress, Integer> pickCounts(int n) {
    SubchannelPicker p = picker();
    Map<SocketAddress, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      PickResult result = p.pickSubchannel(ARGS);
      counts.merge(((FakeSubchannel) result.getSubchannel()).address(), 1, Integer::sum);
    }
    return counts;
  }

  /** Arguments for picks; the balancers under test never read them. */
  public static final PickSubchannelArgs ARGS = new PickSubchannelArgs() {
    @Override
    public CallOptions getCallOptions() {
      return CallOptions.DEFAULT;
    }

    @Override
    public Metadata getHeaders() {
      return new Metadata();
    }

    @Override
    public MethodDescriptor<?, ?> getMethodDescriptor() {
      return null;
    }
  };

  @Override
  public Subchannel createSubchannel(CreateSubchannelArgs args) {
    syncContext.throwIfNotInThisSynchronizationContext();
    FakeSubchannel subchannel = new FakeSubchannel(args.getAddresses());
    subchannels.add(subchannel);
    return subchannel;
  }

  @Override
  public void updateBalancingState(ConnectivityState newState, SubchannelPicker newPicker) {
    syncContext.throwIfNotInThisSynchronizationContext();
    updates.add(new Update(newState, newPicker));
  }

  @Override
  public SynchronizationContext getSynchronizationContext() {
    return syncContext;
  }

  @Override
  public ScheduledExecutorService getScheduledExecutorService() {
    return clock;
  }

  @Override
  public ManagedChannel createOobChannel(EquivalentAddressGroup eag, String authority) {
    throw new UnsupportedOperationException();
  }

  @Override
  public String getAuthority() {
    return "fake-authority";
  }

  /** A subchannel whose state the test sets. */
  public final class FakeSubchannel extends Subchannel {
    private final List<EquivalentAddressGroup> addresses;
    private SubchannelStateListener listener;
    private boolean shutdown;
    private int connectionRequests;

    FakeSubchannel(List<EquivalentAddressGroup> addresses) {
      this.addresses = addresses;
    }

    public InetSocketAddress address() {
      return (InetSocketAddress) addresses.get(0).getAddresses().get(0);
    }

    public boolean isShutdown() {
      return shutdown;
    }

    public int connectionRequests() {
      return connectionRequests;
    }

    /** Reports a new state to the balancer, in the synchronization context. */
    public void setState(ConnectivityState state) {
      if (state == ConnectivityState.TRANSIENT_FAILURE) {
        fail(Status.UNAVAILABLE.withDescription("connection refused: " + address()));
      } else {
        report(ConnectivityStateInfo.forNonError(state));
      }
    }

    /** Reports TRANSIENT_FAILURE with {@code status}. */
    public void fail(Status status) {
      report(ConnectivityStateInfo.forTransientFailure(status));
    }

    private void report(ConnectivityStateInfo info) {
      run(() -> {
        if (listener != null) {
          listener.onSubchannelState(info);
        }
      });
    }

    @Override
    public void start(SubchannelStateListener listener) {
      this.listener = listener;
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public void requestConnection() {
      connectionRequests++;
    }

    @Override
    public List<EquivalentAddressGroup> getAllAddresses() {
      return addresses;
    }

    @Override
    public Attributes getAttributes() {
      return Attributes.EMPTY;
    }

    @Override
    public String toString() {
      return "FakeSubchannel{" + address() + (shutdown ? ", shut down" : "") + "}";
    }
  }
}
