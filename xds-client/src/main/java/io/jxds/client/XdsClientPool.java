package io.jxds.client;

import io.jxds.api.CertificateProvider;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.XdsClientStatus;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.BootstrapLoader;
import io.jxds.client.internal.metrics.Telemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shares one {@link XdsClient} per distinct bootstrap (its servers and node), reference-counted.
 *
 * <p>The bootstrap is read again on every {@link #acquire()}. The bootstrap's {@code
 * jxds.client_retention} (default 5 min; {@code "0s"}: at once) is how long what nobody uses is
 * kept: a client whose count has been zero that long is closed, with its stream, timers and
 * channel (re-acquired before that, it comes back with its cache and its stream), and inside a
 * client the value of a resource whose last watcher left stays cached that long (its name leaves
 * the wire at once). Every client's timers run on one daemon thread the pool owns.
 */
@NullMarked // with the package once DefaultXdsClient is annotated
public final class XdsClientPool {
  private static final Logger log = LoggerFactory.getLogger(XdsClientPool.class);
  private static final XdsClientPool SHARED = new XdsClientPool(BootstrapLoader.fromSystem());

  private final BootstrapLoader loader;
  private final @Nullable Clock clock;
  private final RandomGenerator random;
  /** Null: each client takes the global OpenTelemetry if set when it is created. */
  private final @Nullable Telemetry telemetry;
  private final Object lock = new Object();
  private final Map<Bootstrap.Key, Entry> clients = new HashMap<>();
  private @Nullable ScheduledExecutorService scheduler;

  /**
   * A pool reading the bootstrap through {@code loader}.
   *
   * @param loader where each {@link #acquire()} reads the bootstrap from
   */
  public XdsClientPool(BootstrapLoader loader) {
    this(loader, null, null, new Random(), null);
  }

  /**
   * A pool reading the bootstrap through {@code loader} whose clients, and the balancers using
   * them, record their metrics into {@code openTelemetry} (see {@link
   * XdsClientBuilder#openTelemetry}).
   *
   * @param loader where the bootstrap comes from
   * @param openTelemetry where metrics go
   */
  public XdsClientPool(BootstrapLoader loader, OpenTelemetry openTelemetry) {
    this(loader, null, null, new Random(), Telemetry.of(Objects.requireNonNull(openTelemetry, "openTelemetry")));
  }

  /** Not API: tests supply a manual scheduler and clock (null: the clients' defaults). */
  XdsClientPool(
      BootstrapLoader loader, @Nullable ScheduledExecutorService scheduler, @Nullable Clock clock,
      RandomGenerator random) {
    this(loader, scheduler, clock, random, null);
  }

  private XdsClientPool(
      BootstrapLoader loader, @Nullable ScheduledExecutorService scheduler, @Nullable Clock clock,
      RandomGenerator random, @Nullable Telemetry telemetry) {
    this.loader = Objects.requireNonNull(loader, "loader");
    this.scheduler = scheduler;
    this.clock = clock;
    this.random = random;
    this.telemetry = telemetry;
  }

  /**
   * The process-wide pool, reading the bootstrap from system properties and the environment.
   *
   * @return the pool of {@link BootstrapLoader#fromSystem()}
   */
  public static XdsClientPool shared() {
    return SHARED;
  }

  /**
   * Reads the bootstrap and returns a lease on the client for it, creating the client if needed.
   *
   * @return a new lease, which the caller closes
   * @throws BootstrapException if the bootstrap is missing or invalid (the message names the
   *     source and the field)
   */
  public Lease acquire() throws BootstrapException {
    Bootstrap bootstrap = loader.load();
    synchronized (lock) {
      Entry entry = clients.get(bootstrap.key());
      if (entry == null) {
        DefaultXdsClient client;
        try {
          XdsClientBuilder builder = XdsClientBuilder.fromBootstrap(bootstrap).scheduler(scheduler()).random(random)
              .telemetry(telemetry);
          if (clock != null) {
            builder.clock(clock);
          }
          client = builder.build();
          client.markPooled();
        } catch (RuntimeException e) {
          // A balancer calls this on its channel's SynchronizationContext: nothing unchecked may
          // escape (credentials that cannot load, a target gRPC cannot parse...).
          throw new BootstrapException("xds_servers[0] (" + bootstrap.server().serverUri()
              + "): cannot create the xDS client: " + e.getMessage(), e);
        }
        entry = new Entry(bootstrap, client);
        clients.put(bootstrap.key(), entry);
        log.debug("created xDS client for {} as node \"{}\"", bootstrap.server().serverUri(), bootstrap.node().getId());
      }
      entry.refs++;
      if (entry.closeTimer != null) {
        entry.closeTimer.cancel(false);
        entry.closeTimer = null;
      }
      return new Lease(entry);
    }
  }

  private ScheduledExecutorService scheduler() {
    if (scheduler == null) {
      scheduler = XdsClientBuilder.newDaemonScheduler("jxds-xds-pool-timer");
    }
    return scheduler;
  }

  private void release(Entry entry) {
    synchronized (lock) {
      entry.refs--;
      if (entry.refs > 0) {
        return;
      }
      long retentionNanos = entry.bootstrap.clientRetention().toNanos();
      if (retentionNanos == 0) {
        closeLocked(entry);
      } else {
        entry.closeTimer = scheduler().schedule(() -> closeIfUnused(entry), retentionNanos, TimeUnit.NANOSECONDS);
      }
    }
  }

  private void closeIfUnused(Entry entry) {
    synchronized (lock) {
      if (entry.refs == 0 && clients.get(entry.bootstrap.key()) == entry) {
        closeLocked(entry);
      }
    }
  }

  private void closeLocked(Entry entry) {
    clients.remove(entry.bootstrap.key(), entry);
    entry.closeTimer = null;
    log.debug("closing unused xDS client for {}", entry.bootstrap.server().serverUri());
    entry.client.closeNow();
  }

  /** Tests: closes every client, used or not. */
  void closeAll() {
    synchronized (lock) {
      for (Entry entry : List.copyOf(clients.values())) {
        if (entry.closeTimer != null) {
          entry.closeTimer.cancel(false);
        }
        closeLocked(entry);
      }
    }
  }

  /** Clients currently in the pool (used or retained). */
  int size() {
    synchronized (lock) {
      return clients.size();
    }
  }

  private static final class Entry {
    final Bootstrap bootstrap;
    final DefaultXdsClient client;
    int refs;
    @Nullable ScheduledFuture<?> closeTimer;

    Entry(Bootstrap bootstrap, DefaultXdsClient client) {
      this.bootstrap = bootstrap;
      this.client = client;
    }
  }

  /**
   * One reference to a pooled client, itself an {@link XdsClient}: watch through it, and close it
   * when done (idempotent). Closing the lease releases the reference; the shared client closes once
   * no lease holds it for the bootstrap's retention.
   */
  public final class Lease implements XdsClient {
    private final Entry entry;
    private final AtomicBoolean released = new AtomicBoolean();

    private Lease(Entry entry) {
      this.entry = entry;
    }

    /**
     * The shared client. Its {@code close()} refuses: close this lease.
     *
     * @return the client this lease holds
     */
    public XdsClient client() {
      return entry.client;
    }

    /**
     * The bootstrap the client was created from.
     *
     * @return the bootstrap {@link #acquire()} read when it created the client
     */
    public Bootstrap bootstrap() {
      return entry.bootstrap;
    }

    @Override
    public <T> WatchHandle watch(ResourceType<T> type, String name, ResourceWatcher<T> watcher, Executor executor) {
      if (released.get()) {
        throw new IllegalStateException("this XdsClientPool.Lease is closed");
      }
      return entry.client.watch(type, name, watcher, executor);
    }

    @Override
    public XdsClientStatus status() {
      return entry.client.status();
    }

    @Override
    public Map<String, CertificateProvider> certificateProviders() {
      return entry.client.certificateProviders();
    }

    /** Releases this reference (once; later calls do nothing). Watches made through it stay. */
    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        release(entry);
      }
    }
  }
}
