package io.jxds.soak;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import java.util.List;
import java.util.Map;

/**
 * One soak operation. Every operation is a value chosen by {@link OpGenerator} from the seed and
 * the model alone, so a seed replays the same sequence; {@link #describe()} is its line in the
 * trace.
 */
sealed interface Op {
  String describe();

  /** An operation that only changes one cluster's config at the control plane. */
  sealed interface ConfigOp extends Op {
    String cluster();

    void apply(ClusterModel c);
  }

  record AddEndpoint(String cluster, int loc, int backend, int weight) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).endpoints.add(new ClusterModel.Ep(backend, weight, HealthStatus.HEALTHY));
    }

    @Override
    public String describe() {
      return "add-endpoint " + cluster + " loc#" + loc + " b" + backend + " w" + weight;
    }
  }

  record RemoveEndpoint(String cluster, int loc, int ep) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).endpoints.remove(ep);
    }

    @Override
    public String describe() {
      return "remove-endpoint " + cluster + " loc#" + loc + " ep#" + ep;
    }
  }

  record SetEndpointWeight(String cluster, int loc, int ep, int weight) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).endpoints.get(ep).weight = weight;
    }

    @Override
    public String describe() {
      return "endpoint-weight " + cluster + " loc#" + loc + " ep#" + ep + " w" + weight;
    }
  }

  record SetEndpointHealth(String cluster, int loc, int ep, HealthStatus health) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).endpoints.get(ep).health = health;
    }

    @Override
    public String describe() {
      return "endpoint-health " + cluster + " loc#" + loc + " ep#" + ep + " " + health;
    }
  }

  record SetLocalityWeight(String cluster, int loc, int weight) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).weight = weight;
    }

    @Override
    public String describe() {
      return "locality-weight " + cluster + " loc#" + loc + " w" + weight;
    }
  }

  /** Priority {@code i} becomes {@code mapping.get(i)}: a permutation, so still contiguous. */
  record RenumberPriorities(String cluster, List<Integer> mapping) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      for (ClusterModel.Loc l : c.localities) {
        l.priority = mapping.get(l.priority);
      }
    }

    @Override
    public String describe() {
      return "renumber-priorities " + cluster + " " + mapping;
    }
  }

  /** Moves a locality to another (possibly new, last) priority, then closes up the numbering. */
  record MoveLocality(String cluster, int loc, int priority) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.get(loc).priority = priority;
      c.compactPriorities();
    }

    @Override
    public String describe() {
      return "move-locality " + cluster + " loc#" + loc + " to p" + priority;
    }
  }

  /** Adds a locality; its zone may already be used at another priority of the cluster. */
  record AddLocality(String cluster, String zone, int priority, int weight, List<Integer> backends)
      implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      ClusterModel.Loc l = new ClusterModel.Loc(zone, priority, weight);
      for (int b : backends) {
        l.endpoints.add(new ClusterModel.Ep(b, 1, HealthStatus.HEALTHY));
      }
      c.localities.add(l);
      c.compactPriorities();
    }

    @Override
    public String describe() {
      return "add-locality " + cluster + " " + zone + "@p" + priority + " w" + weight + " backends " + backends;
    }
  }

  record RemoveLocality(String cluster, int loc) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.localities.remove(loc);
      c.compactPriorities();
    }

    @Override
    public String describe() {
      return "remove-locality " + cluster + " loc#" + loc;
    }
  }

  record SetDrops(String cluster, int ppmA, int ppmB) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.dropA = ppmA;
      c.dropB = ppmB;
    }

    @Override
    public String describe() {
      return "drops " + cluster + " " + ppmA + "+" + ppmB + "ppm";
    }
  }

  /** The cluster's {@code lb_policy}: RING_HASH, or back to ROUND_ROBIN (jxds's weighted round robin). */
  record SetRingHash(String cluster, boolean ringHash) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.ringHash = ringHash;
    }

    @Override
    public String describe() {
      return "lb-policy " + cluster + " " + (ringHash ? "RING_HASH" : "ROUND_ROBIN");
    }
  }

  /** A LOGICAL_DNS cluster's endpoint: host name ({@code localhost} or {@code 127.0.0.1}) and backend. */
  record SetDnsTarget(String cluster, String host, int backend) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.dnsHost = host;
      c.dnsBackend = backend;
    }

    @Override
    public String describe() {
      return "dns-target " + cluster + " " + host + ":b" + backend;
    }
  }

  record DeleteCluster(String cluster) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.deleted = true;
    }

    @Override
    public String describe() {
      return "delete-cluster " + cluster;
    }
  }

  record ReaddCluster(String cluster) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.deleted = false;
    }

    @Override
    public String describe() {
      return "readd-cluster " + cluster;
    }
  }

  /** An aggregate cluster's leaves (gRFC A37), highest priority first: reordered, one added or removed. */
  record SetLeaves(String cluster, List<String> leaves) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      c.leaves = List.copyOf(leaves);
    }

    @Override
    public String describe() {
      return "aggregate-leaves " + cluster + " " + leaves;
    }
  }

  /**
   * Every endpoint of a leaf of the aggregate gets {@code health}: all UNHEALTHY moves the
   * aggregate's RPCs to the next leaf with usable endpoints (gRFC A27, A56), HEALTHY brings them back.
   */
  record SetLeafHealth(String cluster, HealthStatus health) implements ConfigOp {
    @Override
    public void apply(ClusterModel c) {
      for (ClusterModel.Loc l : c.localities) {
        for (ClusterModel.Ep e : l.endpoints) {
          e.health = health;
        }
      }
    }

    @Override
    public String describe() {
      return "leaf-health " + cluster + " " + health;
    }
  }

  /** An operation that only changes one listener or its routes at the control plane. */
  sealed interface RouteOp extends Op {
    String listener();

    void apply(RouteModel.ListenerModel l);
  }

  /** The route's clusters get these weights (a cluster left out leaves the route; a new one joins it). */
  record RouteClusters(String listener, boolean lane, Map<String, Integer> weights) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      l.route(lane).clear();
      l.route(lane).putAll(weights);
    }

    @Override
    public String describe() {
      return "route-clusters " + listener + " " + (lane ? "lane" : "default") + " " + weights;
    }
  }

  /** The lane route's path prefix and header matcher. */
  record RouteMatcher(String listener, String prefix, String value, boolean invert) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      l.lanePrefix = prefix;
      l.laneValue = value;
      l.invert = invert;
    }

    @Override
    public String describe() {
      return "route-matcher " + listener + " prefix " + prefix + " header " + (invert ? "!" : "") + value;
    }
  }

  /** The route's timeout, retry policy and hash policy. */
  record SetRoutePolicy(String listener, boolean lane, RoutePolicy policy) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      if (lane) {
        l.lanePolicy = policy;
      } else {
        l.fallbackPolicy = policy;
      }
    }

    @Override
    public String describe() {
      String d = policy.describe();
      return "route-policy " + listener + " " + (lane ? "lane" : "default") + (d.isEmpty() ? " none" : d);
    }
  }

  /** The virtual host's retry policy ({@code retries} 0: none), which routes without their own use. */
  record SetHostRetries(String listener, int retries) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      l.hostRetries = retries;
    }

    @Override
    public String describe() {
      return "host-retries " + listener + " " + retries;
    }
  }

  record DeleteListener(String listener) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      l.deleted = true;
    }

    @Override
    public String describe() {
      return "delete-listener " + listener;
    }
  }

  record RestoreListener(String listener) implements RouteOp {
    @Override
    public void apply(RouteModel.ListenerModel l) {
      l.deleted = false;
    }

    @Override
    public String describe() {
      return "restore-listener " + listener;
    }
  }

  /** Stops the control plane; {@code opsDuring} operations run before it starts again. */
  record StopControlPlane(int downMillis, int opsDuring) implements Op {
    @Override
    public String describe() {
      return "stop-control-plane for >= " + downMillis + " ms, " + opsDuring + " ops meanwhile";
    }
  }

  /** Starts it on the same port; {@code newerVersion}: with a new version even if nothing changed. */
  record StartControlPlane(boolean newerVersion) implements Op {
    @Override
    public String describe() {
      return "start-control-plane" + (newerVersion ? " (newer version)" : "");
    }
  }

  record KillBackend(int backend) implements Op {
    @Override
    public String describe() {
      return "kill-backend b" + backend;
    }
  }

  /**
   * The backend turns sick (accepts connections, fails every RPC) for {@code millis}, then heals;
   * outlier detection must eject it within three intervals and let it back after it heals.
   */
  record SickBackend(int backend, int millis) implements Op {
    @Override
    public String describe() {
      return "sick-backend b" + backend + " for " + millis + " ms";
    }
  }

  record RestartBackend(int backend) implements Op {
    @Override
    public String describe() {
      return "restart-backend b" + backend;
    }
  }

  record OpenChannel(int channel, String cluster, boolean viaPool) implements Op {
    @Override
    public String describe() {
      return "open-channel ch" + channel + " " + cluster + (viaPool ? " (bootstrap pool)" : " (XDS_CLIENT_ARG)");
    }
  }

  /** A channel on {@code xds:///LISTENER} whose RPCs carry {@code lane} in the lane header. */
  record OpenRoutedChannel(int channel, String listener, String lane, boolean viaPool) implements Op {
    @Override
    public String describe() {
      return "open-routed-channel ch" + channel + " xds:///" + listener + " lane " + lane
          + (viaPool ? " (bootstrap pool)" : " (XDS_CLIENT_ARG)");
    }
  }

  record CloseChannel(int channel) implements Op {
    @Override
    public String describe() {
      return "close-channel ch" + channel;
    }
  }

  record IdleChannel(int channel) implements Op {
    @Override
    public String describe() {
      return "idle-channel ch" + channel;
    }
  }

  record BreakStreams() implements Op {
    @Override
    public String describe() {
      return "break-streams";
    }
  }

  /** The control plane closes the stream after each response for a while; {@code during} is applied meanwhile. */
  record Recycle(int millis, ConfigOp during) implements Op {
    @Override
    public String describe() {
      return "recycle-streams " + millis + " ms, meanwhile " + during.describe();
    }
  }

  /** FAKE only: responses held for a while; {@code during} is applied meanwhile. */
  record Hold(int millis, ConfigOp during) implements Op {
    @Override
    public String describe() {
      return "hold-responses " + millis + " ms, meanwhile " + during.describe();
    }
  }

  /** FAKE only: a raw response with an invalid Cluster or ClusterLoadAssignment for {@code cluster}. */
  record BadResource(String cluster, boolean cds) implements Op {
    @Override
    public String describe() {
      return "bad-resource " + (cds ? "CDS " : "EDS ") + cluster;
    }
  }
}
