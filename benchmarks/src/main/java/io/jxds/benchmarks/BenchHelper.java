package io.jxds.benchmarks;

import io.grpc.Attributes;
import io.grpc.ChannelLogger;
import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.ManagedChannel;
import io.grpc.SynchronizationContext;
import io.jxds.testing.FakeClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A channel stand-in for benchmarks: hands out subchannels that never connect until {@link
 * #readyAll()} says they are READY (or, made by {@link #readyOnStart()}, that report READY as soon
 * as they are started), and keeps the last picker a balancer pushed.
 */
public final class BenchHelper extends LoadBalancer.Helper {
  private final SynchronizationContext syncContext = new SynchronizationContext((t, e) -> {
    throw new IllegalStateException("balancer threw", e);
  });
  private final FakeClock clock = new FakeClock();
  // Only subchannels waiting for readyAll() are kept, and only a count of the live ones: a
  // benchmark that replaces endpoints for millions of invocations must neither keep every
  // subchannel it ever created nor pay for a set of the live ones (a measured 10 % of an update).
  private final List<BenchSubchannel> waiting = new ArrayList<>();
  private int live;
  private final boolean readyOnStart;
  private volatile ConnectivityState state;
  private volatile LoadBalancer.SubchannelPicker picker;
  private volatile long pickerUpdates;

  /** Subchannels stay CONNECTING until {@link #readyAll()}. */
  public BenchHelper() {
    this(false);
  }

  private BenchHelper(boolean readyOnStart) {
    this.readyOnStart = readyOnStart;
  }

  /**
   * A helper whose every subchannel reports READY right after {@code start}, through the
   * SynchronizationContext as a channel would (after the task that started it), so one update
   * measured from the outside ends with the picker that serves every new endpoint.
   */
  public static BenchHelper readyOnStart() {
    return new BenchHelper(true);
  }

  /** Runs {@code task} in the synchronization context, as the channel would. */
  public void run(Runnable task) {
    syncContext.execute(task);
  }

  /** Reports READY for every subchannel not yet READY. */
  public void readyAll() {
    run(() -> {
      List<BenchSubchannel> now = new ArrayList<>(waiting);
      waiting.clear();
      for (BenchSubchannel s : now) {
        s.ready();
        if (s.listener == null && !s.shutdown) {
          waiting.add(s); // not started yet: the next readyAll() gets it
        }
      }
    });
  }

  public ConnectivityState state() {
    return state;
  }

  public LoadBalancer.SubchannelPicker picker() {
    return picker;
  }

  /** Subchannels created and not shut down. */
  public int subchannelCount() {
    return live;
  }

  /** How many times a balancer called {@link #updateBalancingState}. */
  public long pickerUpdates() {
    return pickerUpdates;
  }

  @Override
  public LoadBalancer.Subchannel createSubchannel(LoadBalancer.CreateSubchannelArgs args) {
    BenchSubchannel subchannel = new BenchSubchannel(this, args);
    live++;
    if (!readyOnStart) {
      waiting.add(subchannel);
    }
    return subchannel;
  }

  @Override
  public void updateBalancingState(ConnectivityState newState, LoadBalancer.SubchannelPicker newPicker) {
    state = newState;
    picker = newPicker;
    pickerUpdates++; // only ever called in the SynchronizationContext
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

  @Override
  public ManagedChannel createOobChannel(EquivalentAddressGroup eag, String authority) {
    throw new UnsupportedOperationException();
  }

  @Override
  public String getAuthority() {
    return "bench";
  }

  private static final ChannelLogger NO_LOG = new ChannelLogger() {
    @Override
    public void log(ChannelLogLevel level, String message) {}

    @Override
    public void log(ChannelLogLevel level, String messageFormat, Object... args) {}
  };

  private static final class BenchSubchannel extends LoadBalancer.Subchannel {
    private final BenchHelper owner;
    private final LoadBalancer.CreateSubchannelArgs args;
    private LoadBalancer.SubchannelStateListener listener;
    private boolean ready;
    private boolean shutdown;

    BenchSubchannel(BenchHelper owner, LoadBalancer.CreateSubchannelArgs args) {
      this.owner = owner;
      this.args = args;
    }

    void ready() {
      if (listener != null && !ready && !shutdown) {
        ready = true;
        listener.onSubchannelState(ConnectivityStateInfo.forNonError(ConnectivityState.READY));
      }
    }

    @Override
    public void start(LoadBalancer.SubchannelStateListener listener) {
      this.listener = listener;
      if (owner.readyOnStart) {
        owner.syncContext.execute(this::ready);
      }
    }

    @Override
    public void shutdown() {
      if (!shutdown) {
        shutdown = true;
        owner.live--;
      }
    }

    @Override
    public void requestConnection() {}

    @Override
    public List<EquivalentAddressGroup> getAllAddresses() {
      return args.getAddresses();
    }

    @Override
    public Attributes getAttributes() {
      return args.getAttributes();
    }
  }
}
