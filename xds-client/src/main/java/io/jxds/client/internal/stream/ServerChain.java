package io.jxds.client.internal.stream;

import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.Servers;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's ordered xDS servers (the bootstrap's {@code xds_servers}) and which of them serve,
 * after gRFC A71 (xDS fallback). Every method but {@link #start} runs on the client's {@link
 * SynchronizationContext}; the public entry points check that they do.
 *
 * <ul>
 *   <li>The first server serves; the others are idle.
 *   <li>When the server that serves last cannot be reached (its stream fails before any response,
 *       or its channel fails to connect) and some watched name knows nothing (a value, an absence
 *       and a NACK are each something: ARCHITECTURE.md, "Glossary"), the next server is started
 *       as well, and is asked for every name on the wire. Its failure is not reported to watchers
 *       then: the next server may answer. The failure of the last server is reported, as with one
 *       server. A watch of a name that knows nothing while the serving server is failing falls
 *       back the same way.
 *   <li>Servers before the serving one keep retrying (their own backoff). The first response from
 *       one of them makes it the serving server again: the servers after it are stopped and their
 *       streams closed. A stream that is only ready does not (a delta stream counts as connected
 *       when ready, and a proxy in front of a dead server makes it ready too).
 *   <li>The cache is shared: what any server delivered stays in use until a server replaces it.
 * </ul>
 *
 * <p>Federation (gRFC A47): the client has one chain per distinct server list (the top-level
 * {@code xds_servers} and each authority's own), over one controller per distinct server. A
 * controller in several chains has one stream, which carries the names of every chain that has
 * it active ({@link #carries}); its events reach every chain that lists it, and each chain acts
 * for its own names only (failures, fallback, timers).
 */
public final class ServerChain implements AdsStreamController.Events, Servers {
  private static final Logger log = LoggerFactory.getLogger(ServerChain.class);

  private final SynchronizationContext syncContext;
  private List<AdsStreamController> controllers = List.of();
  private ResourceCache cache;
  private Runnable connectionListener;
  /** The serving server's index; those before it retry, those after it are inactive. */
  private int serving;

  /** @param syncContext the client's context, where every method but {@link #start} runs */
  public ServerChain(SynchronizationContext syncContext) {
    this.syncContext = syncContext;
  }

  /**
   * Completes the wiring: the chain is built first, for the cache to send its names to; the
   * controllers, built next with the cache, report to the chain.
   *
   * @param controllers one per server, in bootstrap order, all but the first inactive
   * @param connectionListener runs when {@link #isConnected()} may have changed
   */
  public void start(List<AdsStreamController> controllers, ResourceCache cache, Runnable connectionListener) {
    if (this.cache != null) {
      throw new IllegalStateException("the server chain is started already");
    }
    this.controllers = List.copyOf(controllers);
    this.cache = cache;
    this.connectionListener = connectionListener;
    this.controllers.get(0).servesFromStart(); // gRFC A71: the first server serves
  }

  /** The server's position in this chain, -1 if the chain does not list it. */
  private int indexOf(Object controller) {
    for (int i = 0; i < controllers.size(); i++) {
      if (controllers.get(i) == controller) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code controller} serves this chain or is one it falls back from (still retried). */
  @Override
  public boolean carries(Object controller) {
    int index = indexOf(controller);
    return index >= 0 && index <= serving;
  }

  /** A name went on or off the wire: every active server hears it. */
  @Override
  public void wireChanged(String typeUrl, String name) {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (int i = 0; i <= serving; i++) {
      controllers.get(i).wireChanged(typeUrl, name);
    }
    if (controllers.get(serving).isFailing()) {
      maybeFallBack(); // gRFC A71: a new name that knows nothing while the server cannot be reached
    }
  }

  /** Whether the serving server speaks state of the world (see Servers). */
  @Override
  public boolean stateOfTheWorld() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return !controllers.get(serving).isDelta();
  }

  /**
   * gRFC A53: whether the serving server has {@code ignore_resource_deletion} (a feature of each
   * server, so a fallback's own applies while it serves).
   */
  @Override
  public boolean ignoreResourceDeletion() {
    syncContext.throwIfNotInThisSynchronizationContext();
    return controllers.get(serving).ignoresResourceDeletion();
  }

  /** Whether any active server's stream is ready: a timer may start. */
  @Override
  public boolean streamReady() {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (int i = 0; i <= serving; i++) {
      if (controllers.get(i).isReady()) {
        return true;
      }
    }
    return false;
  }

  /** Whether any active server is connected. */
  public boolean isConnected() {
    syncContext.throwIfNotInThisSynchronizationContext();
    for (int i = 0; i <= serving; i++) {
      if (controllers.get(i).isConnected()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void connectionChanged(AdsStreamController controller) {
    connectionListener.run();
  }

  /**
   * gRFC A71: a lower-priority server is closed only once the higher one sends something. A ready
   * stream is not enough (a proxy in front of a dead control plane accepts the connection, and a
   * delta stream counts as connected when ready), since nothing would start the fallback again
   * while every watched resource is cached.
   */
  @Override
  public void answered(AdsStreamController controller) {
    int index = indexOf(controller);
    if (index < serving) {
      log.info("xDS server {} answers again; leaving fallback {}", controller.target(),
          controllers.get(serving).target());
      int last = serving;
      serving = index;
      for (int i = index + 1; i <= last; i++) {
        controllers.get(i).deactivate();
      }
    }
  }

  @Override
  public void failed(AdsStreamController controller, String what, Status status) {
    if (indexOf(controller) != serving) {
      return; // a higher server still down while a later one serves: nobody needs to hear it
    }
    if (!maybeFallBack()) {
      cache.onStreamFailure(this, controller.target(), what, status);
    }
  }

  @Override
  public void streamClosed(AdsStreamController controller) {
    // gRFC A57: no does-not-exist timer runs while no server can answer.
    if (!streamReady()) {
      cache.noStreamReady(this);
    }
  }

  /** Starts the next server if there is one and some watched name knows nothing. */
  private boolean maybeFallBack() {
    if (serving + 1 >= controllers.size() || !cache.anyWatchedKnowsNothing(this)) {
      return false;
    }
    serving++;
    AdsStreamController next = controllers.get(serving);
    log.info("xDS server {} cannot be reached and resources are missing; falling back to {}",
        controllers.get(serving - 1).target(), next.target());
    // Its stream may be open for another chain already: an answer to a request written before
    // this chain's names went on it must not conclude their absence.
    cache.remark(this);
    next.activate();
    return true;
  }
}
