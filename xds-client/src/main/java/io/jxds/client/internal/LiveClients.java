package io.jxds.client.internal;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.jxds.api.XdsClientStatus;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every jxds xDS client of the process that is not closed, in creation order: what CSDS (gRFC
 * A40) reports. A client registers when built and unregisters when closed, so a closed client is
 * neither listed nor kept reachable from here.
 */
public final class LiveClients {
  /** What CSDS needs to know of one client; every method is safe on any thread. */
  public interface Client {
    /** The node the client identifies itself as, as sent on the ADS stream. */
    Node node();

    /** The control plane's target ({@code xds_servers[0].server_uri}). */
    String serverTarget();

    /** The client's latest status snapshot. */
    XdsClientStatus status();
  }

  private static final ConcurrentSkipListMap<Long, Client> CLIENTS = new ConcurrentSkipListMap<>();
  private static final AtomicLong NEXT_ID = new AtomicLong();

  private LiveClients() {}

  /**
   * Adds a client.
   *
   * @param client the client
   * @return the id to pass to {@link #unregister(long)} when it closes
   */
  public static long register(Client client) {
    long id = NEXT_ID.incrementAndGet();
    CLIENTS.put(id, client);
    return id;
  }

  /**
   * Removes a client; nothing happens if it is not registered.
   *
   * @param id what {@link #register} returned
   */
  public static void unregister(long id) {
    CLIENTS.remove(id);
  }

  /**
   * The live clients, oldest first.
   *
   * @return a snapshot copy
   */
  public static List<Client> all() {
    return List.copyOf(CLIENTS.values());
  }
}
