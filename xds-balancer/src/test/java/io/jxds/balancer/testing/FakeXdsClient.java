package io.jxds.balancer.testing;

import io.grpc.Status;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * An {@link XdsClient} whose resources a test sets by hand, for unit tests of the CDS and EDS
 * layers. Callbacks go through each watcher's executor, as the real client's do.
 */
public final class FakeXdsClient implements XdsClient {
  /** One registered watch. */
  public final class Watch<T> implements WatchHandle {
    public final ResourceType<T> type;
    public final String name;
    private final ResourceWatcher<T> watcher;
    private final Executor executor;
    private boolean cancelled;

    Watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
      this.type = type;
      this.name = name;
      this.watcher = watcher;
      this.executor = executor;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    public boolean cancelled() {
      return cancelled;
    }

    public void update(T value) {
      executor.execute(() -> {
        if (!cancelled) {
          watcher.onUpdate(value);
        }
      });
    }

    public void doesNotExist() {
      executor.execute(() -> {
        if (!cancelled) {
          watcher.onResourceDoesNotExist(name);
        }
      });
    }

    public void error(Status status) {
      executor.execute(() -> {
        if (!cancelled) {
          watcher.onError(status);
        }
      });
    }
  }

  private final List<Watch<?>> watches = new ArrayList<>();

  @Override
  public synchronized <T> WatchHandle watch(
      ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
    Watch<T> w = new Watch<>(type, name, watcher, executor);
    watches.add(w);
    return w;
  }

  private volatile List<ResourceStatus> statuses = List.of();

  @Override
  public XdsClientStatus status() {
    return new XdsClientStatus(true, "test-node", statuses);
  }

  /** What {@link #status()} reports per resource from now on. */
  public void statuses(ResourceStatus... resources) {
    statuses = List.of(resources);
  }

  /** Every watch ever registered, cancelled ones included, in order. */
  public synchronized List<Watch<?>> watches() {
    return List.copyOf(watches);
  }

  /** The latest active watch of {@code name} of {@code type}. */
  @SuppressWarnings("unchecked")
  public synchronized <T> Watch<T> activeWatch(ResourceType<T> type, String name) {
    for (int i = watches.size() - 1; i >= 0; i--) {
      Watch<?> w = watches.get(i);
      if (w.type == type && w.name.equals(name) && !w.cancelled) {
        return (Watch<T>) w;
      }
    }
    throw new AssertionError("no active " + type.shortName() + " watch of " + name + "; watches: " + watches);
  }

  /** Active watches of one type. */
  public synchronized long activeWatchCount(ResourceType<?> type) {
    return watches.stream().filter(w -> w.type == type && !w.cancelled).count();
  }

  @Override
  public String toString() {
    return "FakeXdsClient";
  }
}
