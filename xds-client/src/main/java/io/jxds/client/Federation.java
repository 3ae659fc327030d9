package io.jxds.client;

import io.jxds.client.internal.cache.ResourceCache;
import io.jxds.client.internal.cache.ServerId;
import io.jxds.client.internal.lrs.LoadReportClient;
import io.jxds.client.internal.stream.AdsServer;
import io.jxds.client.internal.stream.AdsStreamController;
import io.jxds.client.internal.stream.ServerChain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The client's servers and which of them serve a name (gRFC A47, ARCHITECTURE.md, "The xDS
 * client"): one fallback chain (gRFC A71) per distinct server list, the top-level {@code
 * xds_servers} and each authority's own (an authority without servers, or with the same list,
 * shares its chain), over one stream controller per distinct server, shared by every chain that
 * lists it: a server has one stream however many authorities name it, and each server keeps its
 * own features. The bootstrap's {@code authorities} map names to chains: looking a name's chain up
 * is one map lookup, done once, when the name is first watched.
 */
final class Federation {
  /**
   * One distinct server list: its fallback chain, and where the load reports of its clusters go
   * (gRFC A47: {@code lrs_server} "self" is the server of the cluster's authority, its first).
   */
  record Lane(List<AdsServer> servers, ServerChain chain, LoadReportClient loadReports) {}

  /** The distinct lists, the top-level one first. */
  private final List<Lane> lanes;
  /** The lane of each authority; null for a client without a bootstrap (its server serves every name). */
  private final @Nullable Map<String, Lane> byAuthority;
  /** One per distinct server, in order of first appearance; set by {@link #start}. */
  private List<AdsStreamController> controllers = List.of();

  /**
   * @param top the top-level servers
   * @param authorities each authority's servers (empty: the top-level ones), or null without a
   *     bootstrap
   * @param newLane builds the chain and load-report client of a distinct list
   */
  Federation(List<AdsServer> top, @Nullable Map<String, List<AdsServer>> authorities,
      Function<List<AdsServer>, Lane> newLane) {
    Map<List<AdsServer>, Lane> byServers = new LinkedHashMap<>();
    byServers.put(top, newLane.apply(top));
    Map<String, Lane> lanesByAuthority = null;
    if (authorities != null) {
      lanesByAuthority = new HashMap<>();
      for (Map.Entry<String, List<AdsServer>> e : authorities.entrySet()) {
        List<AdsServer> servers = e.getValue().isEmpty() ? top : e.getValue();
        lanesByAuthority.put(e.getKey(), byServers.computeIfAbsent(List.copyOf(servers), newLane));
      }
    }
    this.lanes = List.copyOf(byServers.values());
    this.byAuthority = lanesByAuthority;
  }

  /** Builds a controller for a distinct server. */
  interface Controllers {
    /**
     * @param filtered whether its stream carries only the names of the chains that have it active
     *     (there are several chains)
     */
    AdsStreamController create(ServerId id, AdsServer server, boolean filtered);
  }

  /**
   * Builds one controller per distinct server, each heard by every chain that lists it, and starts
   * the chains (each one's first server serves).
   */
  void start(ResourceCache cache, Controllers newController, Runnable connectionListener) {
    boolean filtered = lanes.size() > 1;
    Map<AdsServer, AdsStreamController> byServer = new LinkedHashMap<>();
    for (Lane lane : lanes) {
      List<AdsStreamController> chain = new ArrayList<>();
      for (AdsServer server : lane.servers()) {
        AdsStreamController c = byServer.get(server);
        if (c == null) {
          c = newController.create(new ServerId(byServer.size(), server.transport().target()), server, filtered);
          byServer.put(server, c);
        }
        c.listenedToBy(lane.chain());
        chain.add(c);
      }
      lane.chain().start(chain, cache, connectionListener);
    }
    controllers = List.copyOf(byServer.values());
  }

  /** The top-level list's lane: it serves every name that is not {@code xdstp:}. */
  Lane top() {
    return lanes.get(0);
  }

  /**
   * The lane serving {@code authority}: without a bootstrap the top-level one; null when the
   * bootstrap does not name it.
   */
  @Nullable Lane laneOf(String authority) {
    return byAuthority == null ? top() : byAuthority.get(authority);
  }

  /** Every distinct list's lane, the top-level one first. */
  List<Lane> lanes() {
    return lanes;
  }

  /** Whether any chain has a connected server. */
  boolean isConnected() {
    for (Lane lane : lanes) {
      if (lane.chain().isConnected()) {
        return true;
      }
    }
    return false;
  }

  /** Closes every stream. */
  void shutdown() {
    for (AdsStreamController c : controllers) {
      c.shutdown();
    }
  }

  /** Every distinct server's controller. */
  List<AdsStreamController> controllers() {
    return controllers;
  }
}
