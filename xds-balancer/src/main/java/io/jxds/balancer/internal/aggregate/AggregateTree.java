package io.jxds.balancer.internal.aggregate;

import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.jxds.api.ResourceTypes;
import io.jxds.api.ResourceWatcher;
import io.jxds.api.WatchHandle;
import io.jxds.api.XdsClient;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.balancer.internal.tree.ResourceAbsence;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tree below an aggregate cluster (gRFC A37): one CDS watch per cluster in it, and its leaves
 * in priority order.
 *
 * <ul>
 *   <li>Every cluster of a level is watched in the same pass, so a tree costs one CDS round trip
 *       per level (the client batches the names a pass adds into one request).
 *   <li>Leaves: a depth-first walk of each aggregate's {@code clusters} in order; a cluster
 *       reached twice counts at its first position (gRFC A37).
 *   <li>A cluster that does not exist, or whose first version never came, stays a leaf that
 *       fails (gRFC A74's choice), so the layer above moves on to the next one.
 *   <li>A loop (a cluster among its own ancestors) or a path of more than {@value #MAX_DEPTH}
 *       clusters fails the tree with UNAVAILABLE naming the path; no resource is NACKed.
 *   <li>While a cluster reached has not answered yet, the resolution is pending: the caller keeps
 *       what it serves.
 *   <li>Clusters no longer reached are unwatched when the tree resolves again.
 * </ul>
 *
 * <p>Runs on the channel's SynchronizationContext; watchers are registered with it as executor.
 */
final class AggregateTree {
  /** gRFC A37: the tree of aggregate clusters has a depth limit of 16. */
  static final int MAX_DEPTH = 16;

  /** What a resolution found. */
  sealed interface Resolution permits Pending, Failed, Leaves {}

  /** Some clusters reached have not answered. */
  record Pending(List<String> waitingFor) implements Resolution {}

  /** A loop or an over-deep tree. */
  record Failed(Status status) implements Resolution {}

  /** The leaves, highest priority first. */
  record Leaves(List<Leaf> leaves) implements Resolution {}

  /**
   * One leaf.
   *
   * @param name the cluster's name
   * @param cluster its EDS or LOGICAL_DNS cluster; empty when it cannot be served
   * @param failure why it cannot be served, when {@code cluster} is empty
   */
  record Leaf(String name, Optional<ClusterUpdate> cluster, Status failure) {}

  private final XdsClient xdsClient;
  private final SynchronizationContext syncContext;
  private final Runnable onChange;
  private final Map<String, Node> nodes = new HashMap<>();
  private boolean closed;

  /**
   * @param onChange called on the SynchronizationContext when a watched cluster changes
   */
  AggregateTree(XdsClient xdsClient, SynchronizationContext syncContext, Runnable onChange) {
    this.xdsClient = xdsClient;
    this.syncContext = syncContext;
    this.onChange = onChange;
  }

  /** Walks the tree below {@code root}, whose underlying clusters are {@code children}. */
  Resolution resolve(String root, List<String> children) {
    Walk walk = new Walk();
    Deque<String> path = new ArrayDeque<>();
    path.addLast(root);
    for (String child : children) {
      Failed failed = walk.visit(path, child);
      if (failed != null) {
        return failed; // watches kept: the tree may be repaired
      }
    }
    for (Iterator<Map.Entry<String, Node>> it = nodes.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Node> entry = it.next();
      if (!walk.reached.contains(entry.getKey())) {
        entry.getValue().watch.cancel();
        it.remove();
      }
    }
    if (!walk.waitingFor.isEmpty()) {
      return new Pending(List.copyOf(walk.waitingFor));
    }
    return new Leaves(List.copyOf(walk.leaves.values()));
  }

  /** Cancels every watch. */
  void close() {
    closed = true;
    for (Node node : nodes.values()) {
      node.watch.cancel();
    }
    nodes.clear();
  }

  /** The clusters watched now, for tests. */
  Set<String> watched() {
    return Set.copyOf(nodes.keySet());
  }

  private final class Walk {
    final Set<String> reached = new HashSet<>();
    final List<String> waitingFor = new ArrayList<>();
    final Map<String, Leaf> leaves = new LinkedHashMap<>();

    Failed visit(Deque<String> path, String name) {
      if (path.contains(name)) {
        return new Failed(Status.UNAVAILABLE.withDescription(
            "aggregate cluster loop: " + String.join(" -> ", path) + " -> " + name));
      }
      if (path.size() + 1 > MAX_DEPTH) {
        return new Failed(Status.UNAVAILABLE.withDescription("aggregate cluster tree deeper than " + MAX_DEPTH
            + " clusters: " + String.join(" -> ", path) + " -> " + name));
      }
      reached.add(name);
      Node node = nodes.get(name);
      if (node == null) {
        node = new Node(name);
        nodes.put(name, node);
        node.watch = xdsClient.watchCluster(name, node, syncContext);
      }
      if (!node.answered) {
        if (!waitingFor.contains(name)) {
          waitingFor.add(name);
        }
        return null;
      }
      if (node.value != null && node.value.aggregate().isPresent()) {
        path.addLast(name);
        try {
          for (String child : node.value.aggregate().get().clusters()) {
            Failed failed = visit(path, child);
            if (failed != null) {
              return failed;
            }
          }
        } finally {
          path.removeLast();
        }
        return null;
      }
      leaves.putIfAbsent(name, new Leaf(name, Optional.ofNullable(node.value), node.failure));
      return null;
    }
  }

  /** One watched cluster: its last good version, or why there is none. */
  private final class Node implements ResourceWatcher<ClusterUpdate> {
    final String name;
    WatchHandle watch;
    boolean answered;
    ClusterUpdate value;
    Status failure;

    Node(String name) {
      this.name = name;
    }

    @Override
    public void onUpdate(ClusterUpdate update) {
      syncContext.throwIfNotInThisSynchronizationContext();
      answered = true;
      value = update;
      failure = null;
      changed();
    }

    @Override
    public void onResourceDoesNotExist(String resourceName) {
      syncContext.throwIfNotInThisSynchronizationContext();
      answered = true;
      value = null;
      failure = Status.UNAVAILABLE.withDescription("cluster " + name + " does not exist"
          + ResourceAbsence.why(xdsClient, ResourceTypes.CLUSTER_TYPE_URL, name));
      changed();
    }

    @Override
    public void onError(Status error) {
      syncContext.throwIfNotInThisSynchronizationContext();
      if (value != null) {
        return; // the last good version stays valid
      }
      answered = true;
      failure = Status.UNAVAILABLE.withDescription("cluster " + name + ": " + error.getDescription())
          .withCause(error.getCause());
      changed();
    }

    private void changed() {
      if (!closed && nodes.get(name) == this) {
        onChange.run();
      }
    }
  }
}
