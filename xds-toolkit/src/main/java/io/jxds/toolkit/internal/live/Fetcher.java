package io.jxds.toolkit.internal.live;

import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.model.ListenerUpdate;
import io.jxds.api.model.RouteConfigurationUpdate;
import io.jxds.api.model.route.Route;
import io.jxds.api.model.route.VirtualHost;
import io.jxds.toolkit.BadInputException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches a listener and what it leads to (its route configuration, the clusters its routes name,
 * their endpoints), or a cluster and its endpoints, through a jxds {@link XdsClient}: the client
 * subscribes, ACKs and NACKs as any jxds channel's would. The walk follows each value the client
 * accepts, as the resolver and the CDS layer do (ARCHITECTURE.md, "The control-plane toolkit").
 * It ends when every resource is answered (a value, a NACK, or does-not-exist) or at the deadline;
 * the answers are then read from the client's status: the bytes it cached and the NACK text it sent.
 *
 * <p>The watch callbacks run on one thread of this fetch's own, which alone touches the walk's
 * state; the caller waits for its result.
 */
public final class Fetcher {
  /** What to start from. */
  public enum Root {
    /** A Listener (LDS), as an {@code xds:///} channel starts. */
    LISTENER,
    /** A Cluster (CDS), as an {@code xds-cluster:///} channel starts. */
    CLUSTER
  }

  private static final Duration RECHECK = Duration.ofMillis(20);
  private static final int RECHECKS = 10;
  private static final List<String> ORDER = List.of("LDS", "RDS", "CDS", "EDS");

  private final XdsClient client;
  private final Root root;
  private final String rootName;
  private final Map<Key, Tracked> tracked = new LinkedHashMap<>();
  private final CompletableFuture<Void> answered = new CompletableFuture<>();
  private final ScheduledExecutorService executor;
  private boolean recheckScheduled;

  private Fetcher(XdsClient client, Root root, String rootName) {
    this.client = client;
    this.root = root;
    this.rootName = rootName;
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "jxds-toolkit-fetch");
      t.setDaemon(true);
      return t;
    });
  }

  /** One resource of the walk. */
  private record Key(ResourceType<?> type, String name) {}

  /** What the walk knows of a resource: its watch, how often to look at its status again, the last error. */
  private static final class Tracked {
    WatchHandle handle;
    int rechecksLeft;
    Status lastError;
  }

  /**
   * Fetches {@code name} and everything it leads to, waiting at most {@code timeout}.
   *
   * @return the resources, in the order they were found
   * @throws BadInputException when the root does not exist or nothing answers in time, naming it
   */
  public static Fetched fetch(XdsClient client, Root root, String name, Duration timeout)
      throws BadInputException, InterruptedException {
    return new Fetcher(client, root, name).run(timeout);
  }

  private Fetched run(Duration timeout) throws BadInputException, InterruptedException {
    try {
      executor.execute(() -> {
        if (root == Root.LISTENER) {
          watch(ResourceTypes.LISTENER, rootName, this::onListener);
        } else {
          watch(ResourceTypes.CLUSTER, rootName, this::onCluster);
        }
      });
      boolean inTime = true;
      try {
        answered.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        inTime = false;
      } catch (ExecutionException e) {
        throw new IllegalStateException("bug: the fetch failed", e.getCause());
      }
      boolean complete = inTime;
      CompletableFuture<Fetched> result = CompletableFuture.supplyAsync(() -> collect(complete, timeout), executor);
      try {
        Fetched fetched = result.get();
        if (fetched.failure() != null) {
          throw new BadInputException(fetched.failure());
        }
        return fetched;
      } catch (ExecutionException e) {
        throw new IllegalStateException("bug: collecting the fetch failed", e.getCause());
      }
    } finally {
      executor.execute(() -> tracked.values().forEach(t -> t.handle.cancel()));
      executor.shutdown();
    }
  }

  private <T> void watch(ResourceType<T> type, String name, java.util.function.Consumer<T> follow) {
    Key key = new Key(type, name);
    if (tracked.containsKey(key)) {
      return;
    }
    Tracked t = new Tracked();
    tracked.put(key, t);
    t.handle = client.watch(type, name, new ResourceWatcher<T>() {
      @Override
      public void onUpdate(T value) {
        follow.accept(value);
        heard(t);
      }

      @Override
      public void onResourceDoesNotExist(String resourceName) {
        heard(t);
      }

      @Override
      public void onError(Status error) {
        t.lastError = error;
        heard(t);
      }
    }, executor);
  }

  /** A watcher heard of {@code t}: the client's status says, now or shortly, whether it is answered. */
  private void heard(Tracked t) {
    t.rechecksLeft = RECHECKS;
    checkAnswered();
  }

  /**
   * Ends the walk when the client's status answers every resource: a value (its bytes), a NACK (its
   * text) or does-not-exist. The client publishes its status after the turn that told the watchers,
   * so a resource a watcher heard of that the status does not answer yet is looked at again shortly
   * (a stream error that is not a NACK, a few times, then it waits for the next event).
   */
  private void checkAnswered() {
    if (answered.isDone()) {
      return;
    }
    XdsClientStatus status = client.status();
    boolean all = true;
    boolean recheck = false;
    for (Map.Entry<Key, Tracked> e : tracked.entrySet()) {
      Key key = e.getKey();
      if (!isAnswered(status.resource(key.type().typeUrl(), key.name()).orElse(null))) {
        all = false;
        Tracked t = e.getValue();
        if (t.rechecksLeft > 0) {
          t.rechecksLeft--;
          recheck = true;
        }
      }
    }
    if (all) {
      answered.complete(null);
    } else if (recheck && !recheckScheduled) {
      recheckScheduled = true;
      executor.schedule(() -> {
        recheckScheduled = false;
        checkAnswered();
      }, RECHECK.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private static boolean isAnswered(ResourceStatus s) {
    return s != null && (s.rawResource().isPresent() || s.rejectedVersion().isPresent()
        || s.state() == ResourceState.DOES_NOT_EXIST || s.state() == ResourceState.TIMEOUT);
  }

  private void onListener(ListenerUpdate listener) {
    if (listener.rdsName().isPresent()) {
      watch(ResourceTypes.ROUTE_CONFIGURATION, listener.rdsName().get(), this::onRoutes);
    } else {
      onRoutes(listener.inlineRouteConfiguration().orElseThrow());
    }
  }

  private void onRoutes(RouteConfigurationUpdate routes) {
    for (VirtualHost host : routes.virtualHosts()) {
      for (Route route : host.routes()) {
        for (String cluster : route.action().clusterNames()) {
          watch(ResourceTypes.CLUSTER, cluster, this::onCluster);
        }
      }
    }
  }

  private void onCluster(ClusterUpdate cluster) {
    if (cluster.logicalDns().isEmpty()) {
      watch(ResourceTypes.ENDPOINTS, cluster.edsServiceName(), e -> { });
    }
  }

  /** Reads what the client holds for every resource of the walk. */
  private Fetched collect(boolean complete, Duration timeout) {
    XdsClientStatus status = client.status();
    List<Fetched.Answer> answers = new ArrayList<>();
    Key rootKey = new Key(root == Root.LISTENER ? ResourceTypes.LISTENER : ResourceTypes.CLUSTER, rootName);
    String failure = null;
    // By type (LDS, RDS, CDS, EDS, as a client needs them), then in the order found: the same output
    // whatever order the answers came in.
    List<Map.Entry<Key, Tracked>> entries = new ArrayList<>(tracked.entrySet());
    entries.sort(java.util.Comparator.comparingInt(e -> ORDER.indexOf(e.getKey().type().shortName())));
    for (Map.Entry<Key, Tracked> e : entries) {
      Key key = e.getKey();
      ResourceStatus s = status.resource(key.type().typeUrl(), key.name()).orElse(null);
      Fetched.Answer answer = Fetched.Answer.of(key.type(), key.name(), s, e.getValue().lastError, timeout);
      answers.add(answer);
      if (key.equals(rootKey) && answer.missing() != null) {
        failure = answer.missing() + " (as node \"" + status.nodeId() + "\")";
      }
    }
    return new Fetched(answers, complete, status.nodeId(), failure);
  }
}
