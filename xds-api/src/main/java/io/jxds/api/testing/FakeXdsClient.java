package io.jxds.api.testing;

import io.grpc.Status;
import io.jxds.api.CertificateProvider;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory {@link XdsClient} for unit tests of code that watches resources: the test sets and
 * removes resources by type and name, pushes errors, and sees which watches are active. As with the
 * real client, a watcher of a resource that is set gets its value at once, and every callback runs
 * on the executor the watcher was registered with.
 *
 * <p>It lives in xds-api, not in xds-test-fixtures, because the fixtures module depends on no jxds
 * module (every module's tests use it). Thread-safe.
 */
public final class FakeXdsClient implements XdsClient {
  private final Object lock = new Object();
  private final List<Watch<?>> watches = new ArrayList<>();
  private final Map<Key, Object> resources = new HashMap<>();
  private final String nodeId;
  private volatile List<ResourceStatus> statuses = List.of();
  private volatile Map<String, CertificateProvider> certificateProviders = Map.of();
  private boolean closed;

  /** A fake client whose status names node {@code fake-node}. */
  public FakeXdsClient() {
    this("fake-node");
  }

  /**
   * A fake client whose status names {@code nodeId}.
   *
   * @param nodeId the node id {@link #status()} reports
   */
  public FakeXdsClient(String nodeId) {
    this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
  }

  /**
   * One registered watch: the test may also drive it alone.
   *
   * @param <T> the resource's model type
   */
  public final class Watch<T> implements WatchHandle {
    private final ResourceType<T> type;
    private final String name;
    private final ResourceWatcher<T> watcher;
    private final Executor executor;
    private volatile boolean cancelled;

    private Watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
      this.type = type;
      this.name = name;
      this.watcher = watcher;
      this.executor = executor;
    }

    /**
     * The watched resource's type.
     *
     * @return the type passed to {@link #watch}
     */
    public ResourceType<T> type() {
      return type;
    }

    /**
     * The watched resource's name.
     *
     * @return the name passed to {@link #watch}
     */
    public String name() {
      return name;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    /**
     * Whether the watch was cancelled.
     *
     * @return true after {@link #cancel()} or the client's {@link FakeXdsClient#close()}
     */
    public boolean cancelled() {
      return cancelled;
    }

    /**
     * Delivers {@code value} to this watcher only.
     *
     * @param value the resource's value
     */
    public void update(T value) {
      Objects.requireNonNull(value, "value");
      deliver(() -> watcher.onUpdate(value));
    }

    /** Tells this watcher only that the resource does not exist. */
    public void doesNotExist() {
      deliver(() -> watcher.onResourceDoesNotExist(name));
    }

    /**
     * Delivers {@code status} to this watcher only.
     *
     * @param status the error
     */
    public void error(Status status) {
      Objects.requireNonNull(status, "status");
      deliver(() -> watcher.onError(status));
    }

    private void deliver(Runnable callback) {
      executor.execute(
          () -> {
            if (!cancelled) {
              callback.run();
            }
          });
    }

    @Override
    public String toString() {
      return type.shortName() + " " + name + (cancelled ? " (cancelled)" : "");
    }
  }

  @Override
  @SuppressWarnings("unchecked") // a Key with this type was stored with a T
  public <T> WatchHandle watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(watcher, "watcher");
    Objects.requireNonNull(executor, "executor");
    Watch<T> w = new Watch<>(type, name, watcher, executor);
    T value;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("xDS client is closed");
      }
      watches.add(w);
      value = (T) resources.get(new Key(type, name));
    }
    if (value != null) {
      w.update(value);
    }
    return w;
  }

  /**
   * Sets a resource's value and delivers it to every active watch of it.
   *
   * @param <T> the resource's model type
   * @param type the resource's type
   * @param name the resource's name
   * @param value the new value; later watches of the resource get it at once
   */
  public <T> void setResource(ResourceType<T> type, String name, T value) {
    Objects.requireNonNull(value, "value");
    for (Watch<T> w : activeWatches(type, name, value)) {
      w.update(value);
    }
  }

  /**
   * Removes a resource and tells every active watch of it that it does not exist.
   *
   * @param <T> the resource's model type
   * @param type the resource's type
   * @param name the resource's name
   */
  public <T> void removeResource(ResourceType<T> type, String name) {
    for (Watch<T> w : activeWatches(type, name, null)) {
      w.doesNotExist();
    }
  }

  /**
   * Delivers {@code status} to every active watch of one resource; its value, if any, stays.
   *
   * @param <T> the resource's model type
   * @param type the resource's type
   * @param name the resource's name
   * @param status the error
   */
  public <T> void pushError(ResourceType<T> type, String name, Status status) {
    Objects.requireNonNull(status, "status");
    List<Watch<T>> targets;
    synchronized (lock) {
      targets = activeLocked(type, name);
    }
    for (Watch<T> w : targets) {
      w.error(status);
    }
  }

  /**
   * Every watch ever registered.
   *
   * @return the watches, cancelled ones included, in registration order
   */
  public List<Watch<?>> watches() {
    synchronized (lock) {
      return List.copyOf(watches);
    }
  }

  /**
   * The latest active watch of {@code name}.
   *
   * @param <T> the resource's model type
   * @param type the resource's type
   * @param name the resource's name
   * @return the watch registered last among the active ones
   * @throws AssertionError if there is none (the message lists every watch)
   */
  public <T> Watch<T> activeWatch(ResourceType<T> type, String name) {
    synchronized (lock) {
      List<Watch<T>> active = activeLocked(type, name);
      if (active.isEmpty()) {
        throw new AssertionError("no active " + type.shortName() + " watch of " + name + "; watches: " + watches);
      }
      return active.get(active.size() - 1);
    }
  }

  /**
   * How many watches of {@code type} are active.
   *
   * @param type the resources' type
   * @return the number of watches of that type not cancelled
   */
  public long activeWatchCount(ResourceType<?> type) {
    synchronized (lock) {
      return watches.stream().filter(w -> w.type == type && !w.cancelled).count();
    }
  }

  /**
   * Whether {@link #close()} was called.
   *
   * @return true once closed
   */
  public boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  @Override
  public XdsClientStatus status() {
    return new XdsClientStatus(true, nodeId, statuses);
  }

  /**
   * Sets what {@link #status()} reports per resource from now on (by default nothing), e.g. the
   * {@code lastError} of a resource that does not exist, which code under test may show.
   *
   * @param resources the resources' statuses
   */
  public void statuses(ResourceStatus... resources) {
    statuses = List.of(resources);
  }

  @Override
  public Map<String, CertificateProvider> certificateProviders() {
    return certificateProviders;
  }

  /**
   * Sets what {@link #certificateProviders()} returns from now on (by default nothing).
   *
   * @param providers the providers by instance name
   */
  public void certificateProviders(Map<String, CertificateProvider> providers) {
    certificateProviders = Map.copyOf(providers);
  }

  /** Cancels every watch; later watches are refused. Idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      for (Watch<?> w : watches) {
        w.cancel();
      }
    }
  }

  @Override
  public String toString() {
    return "FakeXdsClient(" + nodeId + ")";
  }

  // Stores (or with a null value, removes) the resource and returns its active watches.
  private <T> List<Watch<T>> activeWatches(ResourceType<T> type, String name, @Nullable T value) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    synchronized (lock) {
      if (value == null) {
        resources.remove(new Key(type, name));
      } else {
        resources.put(new Key(type, name), value);
      }
      return activeLocked(type, name);
    }
  }

  @SuppressWarnings("unchecked")
  private <T> List<Watch<T>> activeLocked(ResourceType<T> type, String name) {
    List<Watch<T>> out = new ArrayList<>();
    for (Watch<?> w : watches) {
      if (w.type == type && w.name.equals(name) && !w.cancelled) {
        out.add((Watch<T>) w);
      }
    }
    return out;
  }

  private record Key(ResourceType<?> type, String name) {}
}
