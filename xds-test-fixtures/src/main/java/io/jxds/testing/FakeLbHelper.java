package io.jxds.testing;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ChannelLogger;
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
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LoadBalancer.Helper} for unit tests of load-balancing policies and for benchmarks of
 * them: records the subchannels a balancer creates and the states it pushes, lets the test drive
 * each subchannel's state, and runs timers on a {@link FakeClock} through a real
 * {@link SynchronizationContext}. Any exception thrown inside the context fails the test at the
 * next {@link #run} or {@link #forward}.
 *
 * <p>{@link #forBenchmarks} keeps no history (a benchmark creates millions of subchannels): only the
 * live count, the last state and picker, and the subchannels {@link #readyAll()} has still to
 * report READY.
 */
public final class FakeLbHelper extends LoadBalancer.Helper {
  /** The clock behind {@link #getScheduledExecutorService()}. */
  public final FakeClock clock = new FakeClock();
  private final List<Throwable> uncaught = new ArrayList<>();
  private final SynchronizationContext syncContext =
      new SynchronizationContext((thread, error) -> uncaught.add(error));
  /** Every subchannel ever created, in creation order (empty for {@link #forBenchmarks}). */
  public final List<FakeSubchannel> subchannels = new ArrayList<>();
  /** Every (state, picker) pushed, in order (empty for {@link #forBenchmarks}). */
  public final List<Update> updates = new ArrayList<>();
  private final boolean history;
  private final boolean readyOnStart;
  private final List<FakeSubchannel> waiting = new ArrayList<>();
  private int live;
  private volatile @Nullable ConnectivityState state; // null before the first update
  private volatile @Nullable SubchannelPicker picker; // null before the first update
  private volatile long pickerUpdates;

  /** A helper that records everything; subchannels stay idle until the test sets their state. */
  public FakeLbHelper() {
    this(true, false);
  }

  private FakeLbHelper(boolean history, boolean readyOnStart) {
    this.history = history;
    this.readyOnStart = readyOnStart;
  }

  /**
   * A helper that keeps no history. With {@code readyOnStart}, every subchannel reports READY right
   * after {@code start}, through the context as a channel would (after the task that started it),
   * so one update measured from outside ends with the picker that serves every new endpoint;
   * without it, subchannels wait for {@link #readyAll()}.
   *
   * @param readyOnStart whether subchannels report READY once started
   * @return the helper
   */
  public static FakeLbHelper forBenchmarks(boolean readyOnStart) {
    return new FakeLbHelper(false, readyOnStart);
  }

  /** One {@code updateBalancingState} call. */
  public record Update(ConnectivityState state, SubchannelPicker picker) {}

  /**
   * Runs {@code task} in the synchronization context, then rethrows anything it threw.
   *
   * @param task what to run
   */
  public void run(Runnable task) {
    syncContext.execute(task);
    rethrow();
  }

  /**
   * Moves the fake clock forward (timers run in the context).
   *
   * @param amount how far
   * @param unit the unit of {@code amount}
   */
  public void forward(long amount, TimeUnit unit) {
    clock.forwardTime(amount, unit);
    rethrow();
  }

  private void rethrow() {
    if (!uncaught.isEmpty()) {
      Throwable t = uncaught.remove(0);
      throw new AssertionError("exception in the SynchronizationContext", t);
    }
  }

  /**
   * The last state pushed, or null.
   *
   * @return the state of the last {@code updateBalancingState}, or null before the first
   */
  public @Nullable ConnectivityState state() {
    return state;
  }

  /**
   * The last picker pushed, or null.
   *
   * @return the picker of the last {@code updateBalancingState}, or null before the first
   */
  public @Nullable SubchannelPicker picker() {
    return picker;
  }

  /**
   * How many times the balancer called {@link #updateBalancingState}.
   *
   * @return the number of {@code updateBalancingState} calls so far
   */
  public long pickerUpdates() {
    return pickerUpdates;
  }

  /**
   * Subchannels created and not shut down.
   *
   * @return the number of live subchannels
   */
  public int subchannelCount() {
    return live;
  }

  /** Reports READY, in the context, for every started subchannel that has not been READY yet. */
  public void readyAll() {
    run(() -> {
      List<FakeSubchannel> now = new ArrayList<>(waiting);
      waiting.clear();
      for (FakeSubchannel s : now) {
        if (!s.shutdown && !s.ready) {
          if (s.listener == null) {
            waiting.add(s); // not started yet: the next readyAll() gets it
          } else {
            s.ready = true;
            s.listener.onSubchannelState(ConnectivityStateInfo.forNonError(ConnectivityState.READY));
          }
        }
      }
    });
  }

  /**
   * The last created, not shut down subchannel for {@code address}, or null when none is live.
   *
   * @param address the subchannel's address
   * @return the subchannel, or null when none is live
   */
  public @Nullable FakeSubchannel subchannel(InetSocketAddress address) {
    for (int i = subchannels.size() - 1; i >= 0; i--) {
      FakeSubchannel s = subchannels.get(i);
      if (s.address().equals(address) && !s.isShutdown()) {
        return s;
      }
    }
    return null;
  }

  /**
   * Live subchannels (not shut down), in creation order.
   *
   * @return a new list of the live subchannels
   */
  public List<FakeSubchannel> liveSubchannels() {
    List<FakeSubchannel> live = new ArrayList<>();
    for (FakeSubchannel s : subchannels) {
      if (!s.isShutdown()) {
        live.add(s);
      }
    }
    return live;
  }

  /**
   * Picks once with the current picker.
   *
   * @return the pick's result
   * @throws NullPointerException before the balancer pushed a picker
   */
  public PickResult pick() {
    return currentPicker().pickSubchannel(ARGS);
  }

  /**
   * Picks {@code n} times and counts picks per address.
   *
   * @param n how many picks
   * @return the number of picks per address, in order of first pick
   * @throws NullPointerException before the balancer pushed a picker
   */
  public Map<SocketAddress, Integer> pickCounts(int n) {
    SubchannelPicker p = currentPicker();
    Map<SocketAddress, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      PickResult result = p.pickSubchannel(ARGS);
      counts.merge(((FakeSubchannel) result.getSubchannel()).address(), 1, Integer::sum);
    }
    return counts;
  }

  private SubchannelPicker currentPicker() {
    return Objects.requireNonNull(picker, "no picker pushed yet");
  }

  /** Arguments for picks: default call options, no headers. */
  public static final PickSubchannelArgs ARGS = args(CallOptions.DEFAULT, new Metadata());

  /**
   * Arguments for a pick with these call options and request headers (no method), for pickers
   * that read them, such as hash-based ones.
   *
   * @param options the call's options
   * @param headers the request headers
   * @return the arguments
   */
  public static PickSubchannelArgs args(CallOptions options, Metadata headers) {
    return new PickSubchannelArgs() {
      @Override
      public CallOptions getCallOptions() {
        return options;
      }

      @Override
      public Metadata getHeaders() {
        return headers;
      }

      @Override
      public @Nullable MethodDescriptor<?, ?> getMethodDescriptor() {
        return null;
      }
    };
  }

  @Override
  public Subchannel createSubchannel(CreateSubchannelArgs args) {
    syncContext.throwIfNotInThisSynchronizationContext();
    FakeSubchannel subchannel = new FakeSubchannel(args.getAddresses(), args.getAttributes());
    if (history) {
      subchannels.add(subchannel);
    }
    if (!readyOnStart) {
      waiting.add(subchannel);
    }
    live++;
    return subchannel;
  }

  @Override
  public void updateBalancingState(ConnectivityState newState, SubchannelPicker newPicker) {
    syncContext.throwIfNotInThisSynchronizationContext();
    if (history) {
      updates.add(new Update(newState, newPicker));
    }
    state = newState;
    picker = newPicker;
    pickerUpdates++;
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
  public ChannelLogger getChannelLogger() {
    return NO_LOG;
  }

  private static final ChannelLogger NO_LOG = new ChannelLogger() {
    @Override
    public void log(ChannelLogLevel level, String message) {}

    @Override
    public void log(ChannelLogLevel level, String messageFormat, Object... args) {}
  };

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
    private List<EquivalentAddressGroup> addresses;
    private final Attributes attributes;
    private int addressUpdates;
    private @Nullable SubchannelStateListener listener; // null until started
    private boolean shutdown;
    private boolean ready;
    private int connectionRequests;

    FakeSubchannel(List<EquivalentAddressGroup> addresses, Attributes attributes) {
      this.addresses = addresses;
      this.attributes = attributes;
    }

    /**
     * The subchannel's address.
     *
     * @return the first address of its first address group
     */
    public InetSocketAddress address() {
      return (InetSocketAddress) addresses.get(0).getAddresses().get(0);
    }

    /**
     * Whether the balancer shut the subchannel down.
     *
     * @return true after {@code shutdown()}
     */
    public boolean isShutdown() {
      return shutdown;
    }

    /**
     * How many times the balancer asked the subchannel to connect.
     *
     * @return the number of {@code requestConnection()} calls
     */
    public int connectionRequests() {
      return connectionRequests;
    }

    /**
     * Reports a new state to the balancer, in the synchronization context.
     *
     * @param state the new state; TRANSIENT_FAILURE comes with an {@code UNAVAILABLE} status
     */
    public void setState(ConnectivityState state) {
      ready = state == ConnectivityState.READY;
      if (state == ConnectivityState.TRANSIENT_FAILURE) {
        fail(Status.UNAVAILABLE.withDescription("connection refused: " + address()));
      } else {
        report(ConnectivityStateInfo.forNonError(state));
      }
    }

    /**
     * Reports TRANSIENT_FAILURE with {@code status}.
     *
     * @param status the failure's status
     */
    public void fail(Status status) {
      ready = false;
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
      if (readyOnStart) {
        syncContext.execute(() -> {
          if (!shutdown && !ready) {
            ready = true;
            listener.onSubchannelState(ConnectivityStateInfo.forNonError(ConnectivityState.READY));
          }
        });
      }
    }

    @Override
    public void shutdown() {
      if (!shutdown) {
        shutdown = true;
        live--;
      }
    }

    @Override
    public void requestConnection() {
      connectionRequests++;
    }

    @Override
    public List<EquivalentAddressGroup> getAllAddresses() {
      return addresses;
    }

    /**
     * Replaces the subchannel's addresses, as gRPC's subchannel does (a connection to an address
     * still listed is kept); the state is left as the test set it.
     *
     * @param addrs the new address groups
     */
    @Override
    public void updateAddresses(List<EquivalentAddressGroup> addrs) {
      syncContext.throwIfNotInThisSynchronizationContext();
      addresses = List.copyOf(addrs);
      addressUpdates++;
    }

    /**
     * How many times the balancer replaced the subchannel's addresses.
     *
     * @return the number of {@code updateAddresses} calls
     */
    public int addressUpdates() {
      return addressUpdates;
    }

    @Override
    public Attributes getAttributes() {
      return attributes; // as gRPC's subchannel: the attributes it was created with
    }

    @Override
    public String toString() {
      return "FakeSubchannel{" + address() + (shutdown ? ", shut down" : "") + "}";
    }
  }
}
